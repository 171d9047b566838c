/**
 * Which requests spend the daily write quota (docs/service-contract.md, Daily write quota):
 * the operations the endpoint table gives a `quota` cost (the writes to products, inventory
 * and listings), when the service accepts them (2xx), with a live key, and not as an
 * idempotent replay. The client's count of its own spend reads it at every answer.
 */
import { operationAt } from '../routes.js';

/** The units of the quota a request to `method path` (below /rest/v1, a query allowed) spends when accepted. */
function writeQuotaCost(method: string, path: string): number {
  return operationAt(method, path)?.quota ?? 0;
}

/** Whether a write to `path` (below /rest/v1, a query allowed) counts against the quota when accepted. */
export function spendsWriteQuota(method: string, path: string): boolean {
  return writeQuotaCost(method, path) > 0;
}

/** Whether an answer to such a write spent a unit: accepted (2xx), by a live key, not replayed. */
export function answerSpentQuota(status: number, liveKey: boolean, replayed: boolean): boolean {
  return liveKey && !replayed && status >= 200 && status < 300;
}

/** The service day of `ms` (UTC, as the quota resets at 00:00 UTC): `2025-06-01`. */
export function quotaDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
