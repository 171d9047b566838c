import { describe, expect, it } from 'vitest';
import {
  dropDeparted,
  emptyRecord,
  FAIR_GRACE_MS,
  FAIR_POLL_MS,
  fairTurnDelay,
  othersOf,
  parseRecord,
  type SharedProcess,
  SILENT_PROCESS_MS,
} from '../../../src/api/shared-state.js';

const T = 1_700_000_000_000;
const ID = 'a'.repeat(32);

function entry(overrides: Partial<SharedProcess> = {}): SharedProcess {
  return { startedAt: T - 1000, seenAt: T, inFlight: 0, queued: 0, grants: 0, ...overrides };
}

describe('the shared record', () => {
  it('round-trips, and refuses what is not a record of this bucket', () => {
    const record = emptyRecord(ID, T);
    record.processes['12'] = entry({ inFlight: 2, waitingSince: T - 5 });
    expect(parseRecord(JSON.stringify(record), ID)).toEqual(record);
    expect(parseRecord(JSON.stringify(record), 'b'.repeat(32))).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, version: 2 }), ID)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, grants: -1 }), ID)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, processes: { x: entry() } }), ID)).toBeUndefined();
    expect(
      parseRecord(JSON.stringify({ ...record, processes: { 12: { inFlight: 'many' } } }), ID),
    ).toBeUndefined();
    expect(parseRecord('{', ID)).toBeUndefined();
  });

  it('drops processes whose pid died or that stayed silent too long, and sums up the others', () => {
    const record = emptyRecord(ID, T);
    record.processes['1'] = entry({ inFlight: 1 });
    record.processes['2'] = entry({ inFlight: 3, queued: 2, waitingSince: T - 40 });
    record.processes['3'] = entry({ inFlight: 4, waitingSince: T - 90 });
    record.processes['4'] = entry({ seenAt: T - SILENT_PROCESS_MS - 1, inFlight: 5 });
    record.processes['5'] = entry({ queued: 1, waitingSince: T - 10 });
    const alive = (pid: number) => pid !== 3;
    const gone = dropDeparted(record, 1, alive, T);
    expect(gone.map((g) => g.inFlight).sort()).toEqual([4, 5]);
    expect(Object.keys(record.processes).sort()).toEqual(['1', '2', '5']);
    expect(othersOf(record, 1, alive)).toEqual({
      pids: [2, 5],
      inFlight: 3,
      queued: 3,
      earliestWaiting: T - 40,
    });
  });

  it('gives a free slot to the oldest waiter of another process, unless it leaves it past the grace', () => {
    const others = { pids: [2], inFlight: 0, queued: 1, earliestWaiting: T - 100 };
    // Ours waited less: leave the slot to them, and look again soon.
    expect(fairTurnDelay(T, T - 5, T - 50, others)).toBe(FAIR_POLL_MS);
    // They do not take it: after the grace it is ours.
    expect(fairTurnDelay(T + FAIR_GRACE_MS, T, T - 50, others)).toBe(0);
    // Ours waited longer, or nobody else waits: take it.
    expect(fairTurnDelay(T, T - 5, T - 150, others)).toBe(0);
    expect(fairTurnDelay(T, T - 5, T - 50, { pids: [2], inFlight: 3, queued: 0 })).toBe(0);
    // A slot free long before the other asked: its grace counts from its asking.
    expect(fairTurnDelay(T - 90, T - 5000, T - 50, others)).toBe(FAIR_POLL_MS);
  });
});
