import { describe, expect, it } from 'vitest';
import { BulkLedger, type ItemOutcome, NOT_REACHED, stoppedBy } from '../../../src/core/outcomes.js';
import { ApiError, NetworkError, QuotaError } from '../../../src/errors.js';

describe('BulkLedger', () => {
  it('keeps one outcome per item: a later one replaces it, and the counts add up to the input', async () => {
    const sent: ItemOutcome[] = [];
    const ledger = new BulkLedger(4, { write: (outcome) => sent.push(outcome) });
    ledger.settle({ index: 0, line: 2, key: 'A', status: 'updated' });
    ledger.settle({ index: 1, line: 3, key: 'B', status: 'created' });
    ledger.settle({ index: 2, line: 4, key: 'C', status: 'failed', code: 'write_unconfirmed' });
    ledger.settle({ index: 2, line: 4, key: 'C', status: 'updated' });
    const summary = ledger.summary(1.5);
    // D was never settled: applied by no run.
    expect(summary).toEqual({
      total: 4,
      updated: 3,
      unchanged: 0,
      failed: 0,
      skipped: 0,
      not_sent: 1,
      simulated: 0,
      requests: 0,
      seconds: 1.5,
    });
    expect(ledger.count('created')).toBe(1);
    await ledger.finish(() => ['A', 'B', 'C', 'D'].map((key, i) => ({ line: i + 2, key })));
    const rows = sent
      .map((outcome) => ledger.final(outcome))
      .map((row) => [row.index, row.key, row.status, String(row.line)]);
    expect(rows).toEqual([
      [0, 'A', 'updated', '2'],
      [1, 'B', 'created', '3'],
      [2, 'C', 'updated', '4'],
      [3, 'D', 'not_sent', '5'],
    ]);
  });

  it('counts as sent only what this run sent and the service took; a revision keeps that', () => {
    const ledger = new BulkLedger(3);
    ledger.settle({ index: 0, key: 'A', status: 'unchanged', unsent: true });
    ledger.settle({ index: 1, key: 'B', status: 'updated' });
    ledger.settle({ index: 2, key: 'C', status: 'skipped', unsent: true });
    expect(ledger.sentAndTaken).toBe(1);
    ledger.revise({ index: 1, key: 'B', status: 'failed', code: 'channel_error' });
    expect(ledger.sentAndTaken).toBe(1);
    expect(ledger.summary(0)).toMatchObject({ failed: 1, unchanged: 1, skipped: 1 });
    expect(ledger.failures(10).map((row) => row.key)).toEqual(['B']);
  });

  it('sends outcomes on in input order as gaps close, holding only those settled ahead of a gap', async () => {
    const sent: number[] = [];
    const ledger = new BulkLedger(6, { write: (outcome) => sent.push(outcome.index) });
    for (const index of [2, 1, 4]) ledger.settle({ index, key: `K${index}`, status: 'updated' });
    expect(sent).toEqual([]);
    expect(ledger.held).toBe(3);
    ledger.settle({ index: 0, key: 'K0', status: 'updated' });
    expect(sent).toEqual([0, 1, 2]);
    expect(ledger.held).toBe(1);
    // Read again only for what nothing settled: item 3 and item 5.
    let read = 0;
    await ledger.finish(function* () {
      for (let index = 0; index < 6; index++) {
        read++;
        yield { key: `K${index}` };
      }
    });
    expect(sent).toEqual([0, 1, 2, 3, 4, 5]);
    expect(read).toBe(6);
    expect(ledger.summary(0)).toMatchObject({ updated: 4, not_sent: 2 });
  });

  it('holds no more as more items settle: a counting sink gets each one, in order, once', async () => {
    const total = 200_000;
    let count = 0;
    let inOrder = true;
    const ledger = new BulkLedger(total, {
      write: (outcome) => {
        inOrder &&= outcome.index === count;
        count++;
      },
    });
    let mostHeld = 0;
    // Chunks of 100 land out of order, 8 in flight at once, each outcome with a message of its own.
    for (let start = 0; start < total; start += 800) {
      for (const chunk of [3, 0, 7, 1, 6, 2, 5, 4]) {
        for (let at = 0; at < 100; at++) {
          const index = start + chunk * 100 + at;
          ledger.settle({
            index,
            line: index + 2,
            key: `SKU-${index}`,
            status: 'failed',
            message: `no SKU-${index}`,
          });
        }
        mostHeld = Math.max(mostHeld, ledger.held);
      }
    }
    await ledger.finish(() => []);
    expect(count).toBe(total);
    expect(inOrder).toBe(true);
    expect(mostHeld).toBeLessThanOrEqual(800);
    expect(ledger.held).toBe(0);
    expect(ledger.count('failed')).toBe(total);
    expect(ledger.failures(10).map((failure) => failure.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('changes nothing once closed, and refuses an item outside the input', () => {
    const ledger = new BulkLedger(1);
    ledger.close();
    ledger.settle({ index: 0, key: 'A', status: 'updated' });
    expect(ledger.settled).toBe(0);
    expect(() => new BulkLedger(1).settle({ index: 1, key: 'B', status: 'updated' })).toThrow(/outside/);
  });
});

describe('stoppedBy', () => {
  it('not sent when the service refused the request; unconfirmed when nothing answered', () => {
    expect(stoppedBy(new QuotaError('used up', new Date(0)))).toMatchObject({
      status: 'not_sent',
      code: 'write_quota_exceeded',
    });
    expect(stoppedBy(new ApiError(403, { code: 'forbidden', message: 'no' }))).toMatchObject({
      status: 'not_sent',
      code: 'forbidden',
    });
    expect(stoppedBy(new NetworkError('socket hang up'))).toMatchObject({
      status: 'failed',
      code: 'write_unconfirmed',
    });
    expect(NOT_REACHED.status).toBe('not_sent');
  });
});
