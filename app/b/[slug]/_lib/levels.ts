import type { Level } from './calendar';

/** What a day cell shows besides its colour (a Japanese hotel calendar's marks), so level never rests on colour alone. */
export const LEVEL_MARK: Record<Level, string> = { available: '○', few: '△', full: '×', past: '–' };

/** Days a guest cannot start a booking on. */
export const isClosedLevel = (level: Level | null) => level === 'full' || level === 'past';

export type LevelWords = Record<Level | 'unknown', string>;

/**
 * A day button's accessible name: the date as words, then its availability, then what picking it
 * does in this state ("check-in", "check-out", or why it cannot be picked).
 */
export function dayLabel(dateText: string, level: Level | null, words: LevelWords, role?: string): string {
  return [dateText, words[level ?? 'unknown'], role].filter(Boolean).join(', ');
}
