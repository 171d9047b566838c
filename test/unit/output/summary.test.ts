import { describe, expect, it } from 'vitest';
import { requestsAndQuota, summaryLine } from '../../../src/output/summary.js';
import { counted } from '../../../src/words.js';

const base = {
  total: 0,
  updated: 0,
  unchanged: 0,
  failed: 0,
  skipped: 0,
  not_sent: 0,
  simulated: 0,
  requests: 0,
  seconds: 1.23,
  taken: 0,
  created: 0,
};

describe('summaryLine', () => {
  it('the verb counts what this run sent and the service took, out of the input; the rest by name', () => {
    expect(
      summaryLine(
        { ...base, total: 6, updated: 3, skipped: 3, requests: 4, taken: 3 },
        'orders',
        'Fulfilled',
      ),
    ).toBe('Fulfilled 3 of 6 orders in 4 requests (1.2 s): 3 updated, 3 skipped');
    expect(
      summaryLine({ ...base, total: 10, updated: 6, unchanged: 4, requests: 1, taken: 10 }, 'SKUs', 'Pushed'),
    ).toBe('Pushed 10 SKUs in 1 request (1.2 s): 6 updated, 4 unchanged');
    expect(
      summaryLine(
        { ...base, total: 5, updated: 5, created: 3, requests: 1, taken: 5 },
        'products',
        'Upserted',
      ),
    ).toBe('Upserted 5 products in 1 request (1.2 s): 3 created, 2 updated');
  });

  it("names a retry's unfixed listings apart: not sent, and not failed", () => {
    expect(
      summaryLine(
        { ...base, total: 9, updated: 1, requests: 1, taken: 1, unfixed: 8 },
        'listings',
        'Resynced',
      ),
    ).toBe('Resynced 1 of 9 listings in 1 request (1.2 s): 1 updated, 8 unfixed (not sent)');
  });

  it('says "not sent" for what a stopped run never sent, not "skipped"', () => {
    const stopped = { ...base, total: 168, updated: 90, not_sent: 78, requests: 9, taken: 90 };
    expect(summaryLine(stopped, 'SKUs', 'Pushed')).toBe(
      'Pushed 90 of 168 SKUs in 9 requests (1.2 s): 90 updated, 78 not sent',
    );
  });

  it('one item, one request: singular words', () => {
    expect(summaryLine({ ...base, total: 1, updated: 1, requests: 1, taken: 1 }, 'SKUs', 'Pushed')).toBe(
      'Pushed 1 SKU in 1 request (1.2 s): 1 updated',
    );
    expect(requestsAndQuota(1)).toBe('1 request (1 unit of daily write quota)');
    expect(requestsAndQuota(2_000)).toBe('2,000 requests (2,000 units of daily write quota)');
    expect(counted(1, 'listing')).toBe('1 listing');
  });
});
