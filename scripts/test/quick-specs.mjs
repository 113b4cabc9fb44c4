// The browser specs that cover a change, for the quick loop (scripts/test/quick.sh): each changed spec;
// each spec that imports a changed file by its path (tests' helpers, content, lib); and each spec named
// for a feature the changed file sits in (server/claims/drying/… → claim-*.spec.ts and drying*.spec.ts).
// Reads the changed paths from its arguments; prints one spec path a line. With --builds, reads spec
// paths instead and prints the builds they run against (TEST_BUILDS, scripts/test/build-for-tests.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { productionSpecs, specsReadingProductionBuild } from '../../tests/e2e/production-specs.mjs';

const SPECS = 'tests/e2e';
// Folder and file names that name no feature.
const GENERIC = new Set([
  'app',
  'api',
  'components',
  'content',
  'lib',
  'server',
  'scripts',
  'tests',
  'e2e',
  'support',
  'ui',
  'layout',
  'base',
  'index',
  'page',
  'route',
  'actions',
  'shared',
  'site',
  'test',
  'src',
  'types',
  'docs',
]);

/**
 * The words of a path that may name a feature: folder and file names, without route groups or extensions.
 * @param {string} file
 * @returns {string[]}
 */
export function featureWords(file) {
  const words = file
    .replace(/\.(?:test\.|spec\.|e2e\.)?(?:tsx?|mjs|js|css|md|json)$/, '')
    .split('/')
    .map((segment) => segment.replace(/^\(|\)$/g, ''))
    .flatMap((segment) => [segment, segment.replace(/s$/, '')])
    .filter((word) => word.length >= 4 && !GENERIC.has(word) && !/^\[/.test(word));
  return [...new Set(words)];
}

/** @param {string[]} changed @param {{ name: string, text: string }[]} specs @returns {string[]} */
export function specsCovering(changed, specs) {
  const chosen = new Set();
  for (const file of changed) {
    const modulePath = file.replace(/\.(?:tsx?|mjs|js)$/, '');
    const words = featureWords(file);
    for (const spec of specs) {
      const specPath = `${SPECS}/${spec.name}`;
      const stem = spec.name.replace(/\.spec\.ts$/, '');
      if (file === specPath) chosen.add(specPath);
      else if (spec.text.includes(`${path.basename(modulePath)}'`) && spec.text.includes(path.basename(path.dirname(modulePath))))
        chosen.add(specPath);
      else if (words.some((word) => stem.split('-').some((part) => part === word || part.replace(/s$/, '') === word))) chosen.add(specPath);
    }
  }
  return [...chosen].sort();
}

/** @param {string[]} specs @returns {string[]} */
export function buildsFor(specs) {
  const builds = new Set();
  for (const spec of specs) {
    if (productionSpecs.test(spec) || specsReadingProductionBuild.test(spec)) builds.add('production');
    if (!productionSpecs.test(spec)) builds.add('test');
  }
  return ['test', 'production'].filter((build) => builds.has(build));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  if (process.argv[2] === '--builds') {
    console.log(buildsFor(process.argv.slice(3)).join(','));
    process.exit(0);
  }
  const specs = readdirSync(SPECS)
    .filter((name) => name.endsWith('.spec.ts'))
    .map((name) => ({ name, text: readFileSync(path.join(SPECS, name), 'utf8') }));
  for (const spec of specsCovering(process.argv.slice(2), specs)) console.log(spec);
}
