import { describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '../../../../src/contract/operations.js';
import { answerSpentQuota, quotaDay, spendsWriteQuota } from '../../../../src/contract/rules/write-quota.js';

describe('spendsWriteQuota', () => {
  it('agrees with the operation table for every operation of the API', () => {
    for (const operation of API_OPERATIONS) {
      const path = operation.path.replace(/\{[a-z_]+\}/g, 'x_1');
      expect(spendsWriteQuota(operation.method, path), `${operation.method} ${operation.path}`).toBe(
        operation.quota === 1,
      );
    }
  });

  it('reads paths as svc api sends them: a query, no leading slash, any case of method', () => {
    expect(spendsWriteQuota('post', 'inventory/batch?x=1')).toBe(true);
    expect(spendsWriteQuota('GET', '/products')).toBe(false);
    expect(spendsWriteQuota('POST', '/orders/ord_1/fulfillment')).toBe(false);
    expect(spendsWriteQuota('POST', '/webhook_endpoints')).toBe(false);
    expect(spendsWriteQuota('POST', '/')).toBe(false);
  });

  it('counts accepted answers of live keys that are not replays', () => {
    expect(answerSpentQuota(200, true, false)).toBe(true);
    expect(answerSpentQuota(201, true, false)).toBe(true);
    expect(answerSpentQuota(200, false, false)).toBe(false);
    expect(answerSpentQuota(200, true, true)).toBe(false);
    expect(answerSpentQuota(422, true, false)).toBe(false);
    expect(answerSpentQuota(429, true, false)).toBe(false);
  });

  it('days are UTC days', () => {
    expect(quotaDay(Date.UTC(2025, 5, 1, 23, 59, 59, 999))).toBe('2025-06-01');
    expect(quotaDay(Date.UTC(2025, 5, 2))).toBe('2025-06-02');
  });
});
