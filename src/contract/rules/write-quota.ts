/**
 * Which requests spend the daily write quota (docs/service-contract.md, Daily write quota):
 * POST, PATCH and DELETE under /products, /inventory and /listings, when the service accepts
 * them (2xx), with a live key, and not as an idempotent replay. Pure and light: the client's
 * count of its own spend reads it at every answer; the operation table flags the same writes.
 */

const COUNTED_METHODS = new Set(['POST', 'PATCH', 'DELETE']);
const COUNTED_ROOTS = new Set(['products', 'inventory', 'listings']);

/** Whether a write to `path` (below /rest/v1, a query allowed) counts against the quota when accepted. */
export function spendsWriteQuota(method: string, path: string): boolean {
  if (!COUNTED_METHODS.has(method.toUpperCase())) return false;
  const root = path
    .split('?')[0]
    ?.split('/')
    .find((segment) => segment !== '');
  return root !== undefined && COUNTED_ROOTS.has(root);
}

/** Whether an answer to such a write spent a unit: accepted (2xx), by a live key, not replayed. */
export function answerSpentQuota(status: number, liveKey: boolean, replayed: boolean): boolean {
  return liveKey && !replayed && status >= 200 && status < 300;
}

/** The service day of `ms` (UTC, as the quota resets at 00:00 UTC): `2025-06-01`. */
export function quotaDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
