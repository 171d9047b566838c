/**
 * A cursor belongs to its list: used on another list, or on the same list with other filters,
 * it is a cursor the service cannot read (400 `parameter_invalid`, param `cursor`); the list,
 * filters and order that made it keep taking it, whatever the page size and filter order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from '../helpers/service-api.js';
import { startTestEmulator, type TestEmulator } from './helpers.js';

describe('a cursor bound to its list', () => {
  let t: TestEmulator;
  let account: string;

  beforeAll(async () => {
    t = await startTestEmulator({ rateLimit: false, products: 30, orders: 40 });
    account = [...t.emulator.store.accounts.keys()][0] as string;
  });
  afterAll(() => t.emulator.close());

  const cursorOf = async (path: string): Promise<string> => {
    const answer = await get(t.emulator, path);
    expect(answer.status).toBe(200);
    expect(answer.body.next_cursor).toEqual(expect.any(String));
    return answer.body.next_cursor;
  };

  const refused = async (path: string) => {
    const answer = await get(t.emulator, path);
    expect(answer.status, path).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'parameter_invalid', param: 'cursor' });
    expect(answer.body.error.message).toMatch(/another list or to other filters/);
  };

  it('refuses a /products cursor on every other list', async () => {
    const cursor = encodeURIComponent(await cursorOf('/products?limit=2'));
    for (const path of [
      '/listings',
      '/orders',
      '/operations',
      '/events',
      '/webhook_endpoints',
      `/channel_accounts/${account}/categories`,
    ]) {
      await refused(`${path}?cursor=${cursor}`);
    }
  });

  it('refuses a status=listed cursor with status=error, and with a filter added', async () => {
    const cursor = encodeURIComponent(await cursorOf('/listings?status=listed&limit=2'));
    await refused(`/listings?status=error&cursor=${cursor}`);
    await refused(`/listings?status=listed&channel=x&cursor=${cursor}`);
    await refused(`/listings?cursor=${cursor}`);
  });

  it('takes it back on its own list with any limit and the filters in any order', async () => {
    const cursor = encodeURIComponent(
      await cursorOf(`/listings?status=listed&channel_account_id=${account}&limit=1`),
    );
    const next = await get(
      t.emulator,
      `/listings?limit=3&channel_account_id=${account}&cursor=${cursor}&status=listed&error_code=`,
    );
    expect(next.status).toBe(200);
  });
});
