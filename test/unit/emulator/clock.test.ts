// The emulator writes every time through isoTime: exactly what toISOString writes, for any millisecond.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/emulator/clock.js';

const LAST_PLAIN_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('isoTime', () => {
  it('writes what toISOString writes, for every millisecond of years 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: LAST_PLAIN_MS }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5_000 },
    );
  });

  it('writes what toISOString writes at the edges of days, and outside the plain years', () => {
    const day = 86_400_000;
    const edges = [0, 1, 999, 1000, day - 1, day, Date.UTC(2024, 1, 29, 23, 59, 59, 999), LAST_PLAIN_MS];
    for (const ms of [...edges, -1, -day, LAST_PLAIN_MS + 1, 8.64e15, -8.64e15, 1.5]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
