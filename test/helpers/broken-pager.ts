/**
 * List endpoints that page wrongly, served by a misbehaving server: a page that claims more
 * without a usable cursor, and a pager that hands out a fresh cursor on every page while it
 * serves the same items again. The emulator pages correctly, so these stand in for a broken
 * service. Loopback only.
 */
import { type MisbehavingServer, misbehavingServer, sendJson } from './misbehaving-server.js';

/** How a page that says `has_more: true` leaves its cursor out. */
export type MissingCursor = 'absent' | 'null' | 'empty';

/**
 * An order-shaped item with a given id (enough for `orders list` to print it), changed `ageMs`
 * before the same instant: a list serves them newest first, as the contract orders it.
 */
export function fakeOrder(id: string, ageMs = 0): Record<string, unknown> {
  const updatedAt = new Date(Date.parse('2025-06-01T00:00:00.000Z') - ageMs).toISOString();
  return {
    id,
    object: 'order',
    channel_account_id: 'chac_broken',
    channel: 'amazon',
    order_id_on_channel: `ch-${id}`,
    status: 'awaiting_shipment',
    fulfillment_status: 'unfulfilled',
    currency: 'USD',
    total: '10.00',
    lines: [],
    created_at: '2025-05-01T00:00:00.000Z',
    updated_at: updatedAt,
  };
}

/**
 * A list whose first page holds `firstPage` items and says `has_more: true`, with its
 * `next_cursor` missing as `missing` says. Any further request is answered with more items,
 * so a client that guessed its way on would show it.
 */
export function pageClaimingMoreWithoutCursor(
  missing: MissingCursor,
  firstPage = 3,
): Promise<MisbehavingServer> {
  return misbehavingServer((_req, res, n) => {
    const data = Array.from({ length: firstPage }, (_, i) =>
      fakeOrder(`ord_p${n}_${i}`, (n * firstPage + i) * 1000),
    );
    const page: Record<string, unknown> = { object: 'list', data, has_more: true };
    if (missing === 'null') page.next_cursor = null;
    if (missing === 'empty') page.next_cursor = '';
    sendJson(res, 200, page);
  });
}

/**
 * A list that never ends: every page holds `perPage` items, says `has_more: true` and gives a
 * cursor never given before, but from page `repeatFrom` (counted from 0) on it serves the
 * items of the first page again.
 */
export function pagerRepeatingItems(perPage = 2, repeatFrom = 1): Promise<MisbehavingServer> {
  return misbehavingServer((_req, res, n) => {
    const page = n < repeatFrom ? n : 0;
    const data = Array.from({ length: perPage }, (_, i) =>
      fakeOrder(`ord_r${page}_${i}`, (page * perPage + i) * 1000),
    );
    sendJson(res, 200, { object: 'list', data, has_more: true, next_cursor: `fresh_${n}` });
  });
}
