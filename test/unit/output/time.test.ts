import { describe, expect, it } from 'vitest';
import { formatTime, isTimeField } from '../../../src/output/time.js';

const NOW = Date.parse('2026-11-10T12:00:00.000Z');

describe('--time', () => {
  it('relative (the default of tables), utc, or local with its offset', () => {
    expect(formatTime('2026-11-10T09:00:00.000Z', 'relative', NOW)).toBe('3h');
    expect(formatTime('2026-11-10T09:00:00.123Z', 'utc', NOW)).toBe('2026-11-10 09:00:00Z');
    expect(formatTime('2026-11-10T09:00:00.000Z', 'local', NOW)).toMatch(
      /^2026-11-10 \d{2}:\d{2}:00[+-]\d{2}:\d{2}$/,
    );
    expect(formatTime(null, 'utc', NOW)).toBe('');
    expect(formatTime('not a time', 'utc', NOW)).toBe('not a time');
  });

  it('knows which fields hold times', () => {
    expect(['created_at', 'last_check.time', 'buckets.t'].every(isTimeField)).toBe(true);
    expect(isTimeField('total')).toBe(false);
  });
});
