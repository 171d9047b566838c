/**
 * What the service may add within /v1 goes through the CLI's own schemas: an answer with a new
 * field and a new enum value (listing and order status, event type, error code) is shown, not
 * refused. The answers are real emulator answers with one addition each, served from loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator } from '../helpers/emulator.js';
import {
  ANY_KEY,
  type MisbehavingServer,
  misbehavingServer,
  sendJson,
} from '../helpers/misbehaving-server.js';
import { get } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';

// biome-ignore lint/suspicious/noExplicitAny: real answers, changed as plain JSON.
type Json = any;

describe('new fields and enum values', () => {
  let server: MisbehavingServer;
  const answers = new Map<string, Json>();

  beforeAll(async () => {
    const emu = await emulator({ orders: 5, products: 5 });
    try {
      const read = async (path: string): Promise<Json> => (await get(emu, path)).body;
      const listing = (await read('/listings?limit=1')).data[0];
      const orders = await read('/orders?limit=1');
      const events = await read('/events?limit=1');
      answers.set(`/rest/v1/listings/${listing.id}`, {
        ...listing,
        status: 'paused_by_channel',
        brand_new_field: { a: 1 },
      });
      orders.data[0] = { ...orders.data[0], status: 'awaiting_pickup', brand_new_field: 'x' };
      answers.set('/rest/v1/orders', { ...orders, has_more: false, next_cursor: null });
      events.data[0] = { ...events.data[0], type: 'listing.relisted', brand_new_field: true };
      answers.set('/rest/v1/events', { ...events, has_more: false, next_cursor: null });
      answers.set('listing', listing.id);
    } finally {
      await emu.close();
    }
    server = await misbehavingServer((req, res) => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const body = answers.get(path);
      if (body) return sendJson(res, 200, body);
      sendJson(res, 404, {
        error: {
          type: 'invalid_request_error',
          code: 'brand_new_code',
          message: 'Nothing here, in new words.',
        },
      });
    });
  });
  afterAll(() => server?.close());

  const env = () => ({ SVC_BASE_URL: server.url, SVC_API_KEY: ANY_KEY });

  it('shows a listing with a new status and a new field', async () => {
    const result = await runSvc(['listings', 'get', answers.get('listing'), '--json'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    const shown = JSON.parse(result.stdout);
    expect(shown).toMatchObject({ status: 'paused_by_channel', brand_new_field: { a: 1 } });
  });

  it('lists an order with a new status and an event of a new type', async () => {
    const orders = await runSvc(['orders', 'list', '--json'], { env: env() });
    expect(orders.code, orders.stderr).toBe(0);
    expect(JSON.parse(orders.stdout)[0]).toMatchObject({ status: 'awaiting_pickup', brand_new_field: 'x' });
    const events = await runSvc(['events', 'list', '--json'], { env: env() });
    expect(events.code, events.stderr).toBe(0);
    expect(JSON.parse(events.stdout)[0]).toMatchObject({ type: 'listing.relisted' });
  });

  it('shows the message of an error with a new code', async () => {
    const result = await runSvc(['products', 'get', 'prod_nothing'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('brand_new_code');
    expect(result.stderr).toContain('Nothing here, in new words');
  });
});
