import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every regular expression literal in the code that serves visitors is checked for super-linear
// backtracking (ReDoS) with recheck. The patterns are found by parsing the source, not listed by hand,
// so a new pattern anywhere is checked without anyone remembering to add it. Length caps before the
// patterns (lib/contact-fields.ts, the body caps) bound the rest.
const SOURCE_FOLDERS = ['app', 'components', 'content', 'lib', 'server'];
const SOURCE_FILES = ['server.mjs', 'instrumentation.ts'];

function sourceFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  return [...SOURCE_FOLDERS.flatMap(walk), ...SOURCE_FILES].filter(
    (file) => /\.(?:ts|tsx|mts|mjs)$/.test(file) && !/\.test\.tsx?$|\.d\.mts$/.test(file),
  );
}

function regexLiterals(file: string): { file: string; line: number; source: string; flags: string }[] {
  const text = readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { file: string; line: number; source: string; flags: string }[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(sourceFile);
      const end = literal.lastIndexOf('/');
      found.push({
        file,
        line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1,
        source: literal.slice(1, end),
        flags: literal.slice(end + 1),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const patterns = sourceFiles().flatMap(regexLiterals);

describe('regular expressions are linear-time (recheck)', () => {
  it('finds the patterns in the source (the check cannot silently check nothing)', () => {
    expect(patterns.length).toBeGreaterThan(25);
    expect(patterns.some((pattern) => pattern.file === path.join('lib', 'contact-fields.ts'))).toBe(true);
  });

  it('has no pattern recheck finds vulnerable', { timeout: 120_000 }, async () => {
    const vulnerable: string[] = [];
    for (const pattern of patterns) {
      const result = await check(pattern.source, pattern.flags, { timeout: 10_000 });
      if (result.status !== 'safe') {
        const detail = result.status === 'vulnerable' ? `${result.complexity.type}, e.g. ${result.attack.pattern}` : result.status;
        vulnerable.push(`${pattern.file}:${pattern.line} /${pattern.source}/${pattern.flags}: ${detail}`);
      }
    }
    expect(vulnerable).toEqual([]);
  });
});
