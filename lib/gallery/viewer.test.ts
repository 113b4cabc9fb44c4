import { describe, expect, it } from 'vitest';
import { counterLabel, neighbourIndices, nextIndex, previousIndex, swipeDirection } from './viewer';

describe('viewer index arithmetic', () => {
  it('moves forward and wraps from the last item to the first', () => {
    expect(nextIndex(0, 5)).toBe(1);
    expect(nextIndex(4, 5)).toBe(0);
  });
  it('moves back and wraps from the first item to the last', () => {
    expect(previousIndex(3, 5)).toBe(2);
    expect(previousIndex(0, 5)).toBe(4);
  });
  it('stays put with a single item', () => {
    expect(nextIndex(0, 1)).toBe(0);
    expect(previousIndex(0, 1)).toBe(0);
  });
  it('wraps any index into range', () => {
    expect(nextIndex(-7, 5)).toBe(4);
    expect(previousIndex(13, 5)).toBe(2);
    expect(nextIndex(2, 0)).toBe(0);
  });
  it('counts from 1', () => {
    expect(counterLabel(0, 9)).toBe('1 of 9');
    expect(counterLabel(8, 9)).toBe('9 of 9');
    expect(counterLabel(nextIndex(8, 9), 9)).toBe('1 of 9');
  });
  it('lists the neighbours to preload', () => {
    expect(neighbourIndices(0, 5)).toEqual([1, 4]);
    expect(neighbourIndices(1, 2)).toEqual([0]);
    expect(neighbourIndices(0, 1)).toEqual([]);
  });
});

describe('swipeDirection', () => {
  it('left is next, right is previous', () => {
    expect(swipeDirection(-120, 10)).toBe('next');
    expect(swipeDirection(120, -5)).toBe('previous');
  });
  it('ignores short and mostly vertical moves', () => {
    expect(swipeDirection(-30, 0)).toBeNull();
    expect(swipeDirection(-80, 100)).toBeNull();
  });
});
