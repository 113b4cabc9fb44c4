// ESLint: Next's rules (React, hooks, accessibility via jsx-a11y, Core Web Vitals), its TypeScript
// rules, eslint-plugin-regexp (patterns applied to visitor input must stay linear-time; see also
// server/regex-safety.test.ts), and eslint-config-prettier last so formatting is Prettier's alone.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';
import regexp from 'eslint-plugin-regexp';

export default defineConfig([
  ...nextCoreWebVitals,
  ...nextTypescript,
  regexp.configs['flat/recommended'],
  {
    rules: {
      // Super-linear backtracking is a denial-of-service risk on visitor input.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // The gallery serves whatever the CRM or the built-in store holds (any origin, any size), and the
      // site draws its own placeholder artwork as plain SVG: next/image is not a fit there.
      '@next/next/no-img-element': 'off',
      // The site removes control characters from visitor text on purpose; those patterns name them.
      'no-control-regex': 'off',
      // Patterns that guard input spell out their ASCII classes ([A-Za-z0-9_-]) rather than \w or /i:
      // what they accept stays obvious at a glance.
      'regexp/prefer-w': 'off',
      'regexp/prefer-d': 'off',
      'regexp/use-ignore-case': 'off',
      'regexp/no-obscure-range': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Browser-test code waits by evaluating from the test (expect.poll with page.evaluate, or a loop of
    // evaluations): Puppeteer's and Playwright's waitForFunction rebuild the predicate in the page with
    // Function(), which a browser may hold to the site's CSP (Firefox ESR 140 does), and the CSP stays strict.
    files: ['tests/**', 'scripts/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForFunction',
          message:
            "waitForFunction evaluates its predicate with Function() in the page, which the site's CSP may block (Firefox ESR 140): poll with page.evaluate from the test, or wait on a selector or event.",
        },
      ],
    },
  },
  prettier,
  globalIgnores([
    '.next*/**',
    'node_modules/**',
    'data/**',
    'public/**',
    'test-results/**',
    'test-results-*/**',
    'test-phases/**',
    'playwright-report/**',
    'bench-results/**',
    'next-env.d.ts',
  ]),
]);
