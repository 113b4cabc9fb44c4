// How long the site's functions are: every function, method and arrow function outside scripts/ and the
// tests, with its lines (a function's lines include those of the functions inside it). `npm run shape`
// prints those over the limit; function-length.test.ts holds the code to it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** A function longer than this is a reader's whole screen and more: split it into named parts. */
export const LONG_FUNCTION_LINES = 80;
/** No function is longer than this. */
export const MAX_FUNCTION_LINES = 150;
/** How many functions may be longer than LONG_FUNCTION_LINES (a long list of words or a form's markup). */
export const MAX_LONG_FUNCTIONS = 15;

export type FunctionLength = { file: string; line: number; name: string; lines: number };

const SOURCE = /\.(?:ts|tsx|mjs|js)$/;
const NOT_MEASURED = /^(?:scripts|tests)\/|\.(?:test|spec)\.|\.e2e\.|\.d\.ts$|^\./;

/** The files measured: tracked sources outside scripts/ and the tests. */
export function measuredFiles(root: string): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => SOURCE.test(file) && !NOT_MEASURED.test(file));
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  return '(anonymous)';
}

/** Every function in one file's text, with its length in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      found.push({ file, line: first + 1, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function of the site longer than `minLines`, longest first. */
export function longFunctions(root: string, minLines = LONG_FUNCTION_LINES): FunctionLength[] {
  return measuredFiles(root)
    .flatMap((file) => functionLengths(file, readFileSync(path.join(root, file), 'utf8')))
    .filter((measured) => measured.lines > minLines)
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const long = longFunctions(process.cwd());
  console.log(
    `${long.length} functions over ${LONG_FUNCTION_LINES} lines (at most ${MAX_LONG_FUNCTIONS}), ` +
      `${long.filter((measured) => measured.lines > MAX_FUNCTION_LINES).length} over ${MAX_FUNCTION_LINES} (none)`,
  );
  for (const { file, line, name, lines } of long) console.log(`${String(lines).padStart(4)}  ${file}:${line}  ${name}`);
}
