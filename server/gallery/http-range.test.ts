import { describe, expect, it } from 'vitest';
import { parseRange } from './http-range';

describe('parseRange', () => {
  it('reads the three single-range forms', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
  });
  it('clamps an end past the file and a suffix longer than it', () => {
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
  });
  it('is unsatisfiable from the end of the file on', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
  it('ignores what a server may ignore: none, other units, several ranges, nonsense', () => {
    for (const header of [null, '', 'items=0-1', 'bytes=0-1,5-9', 'bytes=abc', 'bytes=-', 'bytes=9-3'])
      expect(parseRange(header, 1000)).toBeNull();
  });
});
