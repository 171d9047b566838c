/** The note a live bulk plan adds after its cost: what svc counted of the key's quota today, and where. */
import { describe, expect, it } from 'vitest';
import type { QuotaReading } from '../../../../src/client/pacing/quota-tally.js';
import { planNote } from '../../../../src/core/quota/spent.js';

const reading = (spent: number, more: Partial<QuotaReading> = {}): QuotaReading => ({
  day: '2026-11-29',
  spent,
  thisMachine: spent,
  countedOn: 'this machine',
  resetsAt: new Date(Date.UTC(2026, 10, 30)),
  ...more,
});

describe('planNote', () => {
  it('says the count of every machine when Redis gave it', () => {
    expect(planNote(reading(9990, { countedOn: 'every machine sharing SVC_PACING_URL' }))).toBe(
      'svc has spent 9,990 today on this key',
    );
  });

  it('says that an empty count of one machine sees no other machine', () => {
    expect(planNote(reading(0))).toBe(
      'svc has counted 0 on this machine today; other machines are not counted without SVC_PACING_URL',
    );
  });

  it('with SVC_PACING_URL set but away, says the count is this machine’s, whatever it is', () => {
    const away = { unshared: 'SVC_PACING_URL (redis://127.0.0.1:6379) does not answer (ECONNREFUSED)' };
    for (const spent of [0, 12]) {
      expect(planNote(reading(spent, away))).toBe(
        `svc has counted ${spent} on this machine today; other machines are not counted while SVC_PACING_URL does not answer`,
      );
    }
  });
});
