import { describe, expect, it } from 'vitest';
import {
  dropDeparted,
  emptyRecord,
  FAIR_GRACE_MS,
  FAIR_POLL_MS,
  fairTurnDelay,
  othersOf,
  parseRecord,
  processName,
  REMOTE_SILENT_MS,
  type SharedProcess,
  SILENT_PROCESS_MS,
  STALLED_PROCESS_MS,
} from '../../../../src/client/pacing/shared-record.js';

const T = 1_700_000_000_000;
const ID = 'a'.repeat(32);

function entry(overrides: Partial<SharedProcess> = {}): SharedProcess {
  return { startedAt: T - 1000, seenAt: T, inFlight: 0, queued: 0, grants: 0, ...overrides };
}

describe('the shared record', () => {
  it('round-trips, and refuses what is not a record of this bucket', () => {
    const record = emptyRecord(ID, T);
    record.processes['12'] = entry({ inFlight: 2, waitingSince: T - 5 });
    expect(parseRecord(JSON.stringify(record), ID, T)).toEqual(record);
    expect(parseRecord(JSON.stringify(record), 'b'.repeat(32), T)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, version: 2 }), ID, T)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, grants: -1 }), ID, T)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, processes: { x: entry() } }), ID, T)).toBeUndefined();
    expect(
      parseRecord(JSON.stringify({ ...record, processes: { 12: { inFlight: 'many' } } }), ID, T),
    ).toBeUndefined();
    expect(parseRecord('{', ID, T)).toBeUndefined();
  });

  it('refuses times that cannot hold: written by a clock since stepped back, or a pause beyond any Retry-After', () => {
    const record = emptyRecord(ID, T);
    // An hour ahead of us: its bucket level and pause would hold every request an hour.
    expect(parseRecord(JSON.stringify({ ...record, updatedAt: T + 3_600_000 }), ID, T)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, updatedAt: T + 1000 }), ID, T)).toBeDefined();
    // A 429's Retry-After of 27 hours fails the request; it never holds the key that long.
    expect(parseRecord(JSON.stringify({ ...record, pausedUntil: T + 100_000_000 }), ID, T)).toBeUndefined();
    expect(parseRecord(JSON.stringify({ ...record, pausedUntil: T + 60_000 }), ID, T)).toBeDefined();
  });

  it('drops processes whose pid died or that stayed silent too long, and sums up the others', () => {
    const record = emptyRecord(ID, T);
    record.processes['1'] = entry({ inFlight: 1 });
    record.processes['2'] = entry({ inFlight: 3, queued: 2, waitingSince: T - 40 });
    record.processes['3'] = entry({ inFlight: 4, waitingSince: T - 90 });
    record.processes['4'] = entry({ seenAt: T - SILENT_PROCESS_MS - 1, inFlight: 5 });
    record.processes['5'] = entry({ queued: 1, waitingSince: T - 10 });
    // Stopped (Ctrl-Z) with requests out; one merely waiting may stay quiet much longer.
    record.processes['6'] = entry({ seenAt: T - STALLED_PROCESS_MS - 1, inFlight: 2 });
    record.processes['7'] = entry({ seenAt: T - STALLED_PROCESS_MS - 1, queued: 1, waitingSince: T - 9000 });
    const alive = (pid: number) => pid !== 3;
    expect(othersOf(record, 1, alive, T).departed).toBe(3);
    const gone = dropDeparted(record, 1, alive, T);
    expect(gone.map(([pid, g]) => [pid, g.inFlight]).sort()).toEqual([
      [3, 4],
      [4, 5],
      [6, 2],
    ]);
    expect(Object.keys(record.processes).sort()).toEqual(['1', '2', '5', '7']);
    expect(othersOf(record, 1, alive, T)).toEqual({
      pids: [2, 5, 7],
      inFlight: 3,
      queued: 4,
      earliestWaiting: T - 9000,
      departed: 0,
    });
  });

  it('judges processes of other machines (liveness unknown) by their last write', () => {
    const record = emptyRecord(ID, T);
    const remote = { host: 'ci-runner-7', pid: 4120 };
    record.processes['1001'] = entry({ ...remote, seenAt: T - STALLED_PROCESS_MS - 1, inFlight: 1 });
    record.processes['1002'] = entry({ ...remote, seenAt: T - STALLED_PROCESS_MS - 1, queued: 2 });
    record.processes['1003'] = entry({ ...remote, seenAt: T - STALLED_PROCESS_MS - 1 });
    record.processes['1004'] = entry({ ...remote, seenAt: T - REMOTE_SILENT_MS - 1 });
    record.processes['1005'] = entry({ ...remote, seenAt: T - 100, inFlight: 3, queued: 1 });
    expect(parseRecord(JSON.stringify(record), ID, T)).toEqual(record);
    const unknown = () => undefined;
    const others = othersOf(record, 7, unknown, T);
    // Silent with requests out or waiting, or silent for long: gone. Idle and recent: there.
    expect(others.pids.sort()).toEqual([1003, 1005]);
    expect(others.departed).toBe(3);
    expect(
      dropDeparted(record, 7, unknown, T)
        .map(([id]) => id)
        .sort(),
    ).toEqual([1001, 1002, 1004]);
    expect(processName(1005, record.processes['1005'])).toBe('svc process 4120 on ci-runner-7');
    expect(processName(12, entry())).toBe('svc process 12');
  });

  it('gives a free slot to the oldest waiter of another process, unless it leaves it past the grace', () => {
    const others = { pids: [2], inFlight: 0, queued: 1, earliestWaiting: T - 100, departed: 0 };
    // Ours waited less: leave the slot to them, and look again soon.
    expect(fairTurnDelay(T, T - 5, T - 50, others)).toBe(FAIR_POLL_MS);
    // They do not take it: after the grace it is ours.
    expect(fairTurnDelay(T + FAIR_GRACE_MS, T, T - 50, others)).toBe(0);
    // Ours waited longer, or nobody else waits: take it.
    expect(fairTurnDelay(T, T - 5, T - 150, others)).toBe(0);
    expect(fairTurnDelay(T, T - 5, T - 50, { pids: [2], inFlight: 3, queued: 0, departed: 0 })).toBe(0);
    // A slot free long before the other asked: its grace counts from its asking.
    expect(fairTurnDelay(T - 90, T - 5000, T - 50, others)).toBe(FAIR_POLL_MS);
  });
});
