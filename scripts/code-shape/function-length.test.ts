import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionLengths, longFunctions, LONG_FUNCTION_LINES, MAX_FUNCTION_LINES, MAX_LONG_FUNCTIONS } from './function-length';

const ROOT = path.resolve(__dirname, '../..');

describe('function length', () => {
  it('measures a function with the functions inside it, an arrow by its variable, a method by its name', () => {
    const text = [
      'export function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner();',
      '}',
      'class A {',
      '  run() {',
      '    return 2;',
      '  }',
      '}',
    ].join('\n');
    expect(functionLengths('a.ts', text)).toEqual([
      { file: 'a.ts', line: 1, name: 'outer', lines: 6 },
      { file: 'a.ts', line: 2, name: 'inner', lines: 3 },
      { file: 'a.ts', line: 8, name: 'run', lines: 3 },
    ]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines and at most ${MAX_LONG_FUNCTIONS} over ${LONG_FUNCTION_LINES} outside scripts/ and the tests`, () => {
    const long = longFunctions(ROOT);
    const describe = (list: typeof long) => list.map(({ file, line, name, lines }) => `${file}:${line} ${name} (${lines} lines)`);
    expect(describe(long.filter((measured) => measured.lines > MAX_FUNCTION_LINES))).toEqual([]);
    expect(long.length, describe(long).join('\n')).toBeLessThanOrEqual(MAX_LONG_FUNCTIONS);
  }, 120_000);
});
