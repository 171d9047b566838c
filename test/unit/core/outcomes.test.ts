import { describe, expect, it } from 'vitest';
import { BulkLedger, NOT_REACHED, stoppedBy } from '../../../src/core/outcomes.js';
import { ApiError, NetworkError, QuotaError } from '../../../src/errors.js';

describe('BulkLedger', () => {
  it('keeps one outcome per item: a later one replaces it, and the counts add up to the input', async () => {
    const ledger = new BulkLedger(4);
    ledger.settle({ index: 0, key: 'A', status: 'updated' });
    ledger.settle({ index: 1, key: 'B', status: 'created' });
    ledger.settle({ index: 2, key: 'C', status: 'failed', code: 'write_unconfirmed' });
    ledger.settle({ index: 2, key: 'C', status: 'updated' });
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
    const rows: Array<[number, string | undefined, string, string]> = [];
    for await (const row of ledger.rows(['A', 'B', 'C', 'D'].map((key, i) => ({ line: i + 2, key }))))
      rows.push([row.index, row.key, row.status, String(row.line)]);
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
