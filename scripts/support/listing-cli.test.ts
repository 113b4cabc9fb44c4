import { describe, expect, it } from 'vitest';
import { oneLine, tableLines } from './listing-cli';

describe('oneLine', () => {
  it('collapses white space and trims', () => {
    expect(oneLine('  Water\n\tin the   hall ', 40)).toBe('Water in the hall');
  });
  it('cuts to the maximum with an ellipsis', () => {
    expect(oneLine('abcdefghij', 5)).toBe('abcd…');
    expect(oneLine('abcde', 5)).toBe('abcde');
  });
});

describe('tableLines', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      tableLines(
        ['#', 'who', 'note'],
        [
          ['1', 'Jo', 'short'],
          ['12', 'Alexandra', 'a longer note'],
        ],
      ),
    ).toEqual(['#   who        note', '1   Jo         short', '12  Alexandra  a longer note']);
  });
  it('cuts cells at maxCell, except in the last column', () => {
    expect(tableLines(['a', 'b'], [['abcdefgh', 'the last column is never cut']], 4)).toEqual([
      'a     b',
      'abc…  the last column is never cut',
    ]);
  });
  it('prints the header alone when there are no rows', () => {
    expect(tableLines(['time', 'level'], [])).toEqual(['time  level']);
  });
});

describe('printable', () => {
  it('removes CSI and OSC sequences, C0/C1 controls and bidi overrides, keeping newlines and tabs', async () => {
    const { printable, terminalJson } = await import('./listing-cli');
    expect(printable('a\u001b[2Jb\u001b[31;1mc\u001b]52;c;ZXZpbA==\u0007d\u001b]0;title\u001b\\e\u009bf\u202eg\u0000h\ni\tj')).toBe(
      'abcdef' + 'gh\ni\tj',
    );
    expect(terminalJson({ text: '\u009b31m\u202e' })).toBe('{\n  "text": "\\u009b31m\\u202e"\n}');
    expect(oneLine('x\u001b[2J\ny', 10)).toBe('x y');
  });

  it('removes (or, in JSON, escapes) every bidirectional control and zero-width character, as the e-mails do', async () => {
    const { printable, terminalJson } = await import('./listing-cli');
    const hidden = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\u2060\ufeff';
    expect(printable(`Roof ${hidden}gpj.exe`)).toBe('Roof gpj.exe');
    expect(terminalJson(`a\u2067b\u200bc`)).toBe('"a\\u2067b\\u200bc"');
    for (const name of ['محمد', 'שלום', 'Łukasz Żółć', 'Seònaid NicAoidh', 'می‌خواهم', '👩‍👩‍👧‍👦']) {
      expect(printable(name)).toBe(name);
      expect(terminalJson(name)).toBe(JSON.stringify(name));
    }
  });
});
