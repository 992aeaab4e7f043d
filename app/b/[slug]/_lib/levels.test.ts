import { describe, expect, it } from 'vitest';
import { dayLabel, isClosedLevel, LEVEL_MARK } from './levels';

const words = { available: 'available', few: 'few left', full: 'full', past: 'past', unknown: 'loading' };

describe('day levels', () => {
  it('gives every level its own mark, so colour is never the only sign', () => {
    expect(new Set(Object.values(LEVEL_MARK)).size).toBe(4);
  });

  it('names the date, the level and what a pick does', () => {
    expect(dayLabel('Thursday 10 December 2026', 'few', words)).toBe('Thursday 10 December 2026, few left');
    expect(dayLabel('Thursday 10 December 2026', 'available', words, 'check-in')).toBe(
      'Thursday 10 December 2026, available, check-in',
    );
    expect(dayLabel('Thursday 10 December 2026', null, words)).toBe('Thursday 10 December 2026, loading');
  });

  it('closes full and past days', () => {
    expect(isClosedLevel('full')).toBe(true);
    expect(isClosedLevel('past')).toBe(true);
    expect(isClosedLevel('few')).toBe(false);
    expect(isClosedLevel(null)).toBe(false);
  });
});
