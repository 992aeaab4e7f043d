import { describe, expect, it } from 'vitest';
import { fill, leaveSlots } from './slots';

describe('leaveSlots and fill', () => {
  it('leave a placeholder in a translated message and fill it later', () => {
    const message = leaveSlots((values) => `Works from ${values.time} (${values.zone})`, 'time', 'zone');
    expect(message).toBe('Works from {time} ({zone})');
    expect(fill(message, { time: '15:00', zone: 'Asia/Tokyo' })).toBe('Works from 15:00 (Asia/Tokyo)');
  });

  it('leave other braces and values that look like slots alone', () => {
    expect(fill('{a} and {b}', { a: '{b}' })).toBe('{b} and {b}');
  });
});
