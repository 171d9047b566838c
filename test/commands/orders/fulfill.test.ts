/**
 * `orders fulfill --file` with a shipping tool's own export: the order column holds the
 * marketplaces' order numbers (and svc ids, mixed), read without --map; numbers are resolved
 * before anything is sent; the dry run's verdicts are what the live run then does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import type { OrderRecord } from '../../../src/emulator/model.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false, orders: 400 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'orders', 'shipstation-numbers.csv');
const DAY_MS = 86_400_000;

/** Report rows as [key, status, code, message], header dropped. */
function reportRows(path: string): string[][] {
  return (parse(readFileSync(path, 'utf8')) as string[][]).slice(1);
}

/**
 * The store's state the export speaks of: three awaiting orders on three accounts named by
 * number, one awaiting named by its svc id, one shipped, one canceled, an unknown number and a
 * number two awaiting orders on two accounts hold.
 */
function storeState() {
  const orders = [...emu.store.orders.values()];
  const recent = (order: OrderRecord) => Date.parse(order.created_at) > Date.now() - 30 * DAY_MS;
  const awaiting = orders.filter((order) => order.status === 'awaiting_shipment');
  const accounts = [...new Set(awaiting.map((order) => order.channel_account_id))];
  expect(accounts.length).toBeGreaterThanOrEqual(3);
  const onAccount = (account: string) =>
    awaiting.find((order) => order.channel_account_id === account) as OrderRecord;
  const [one, two, three] = accounts.slice(0, 3).map(onAccount);
  const taken = new Set([one.id, two.id, three.id]);
  const byId = awaiting.find((order) => !taken.has(order.id)) as OrderRecord;
  taken.add(byId.id);
  const held = awaiting.find((order) => !taken.has(order.id)) as OrderRecord;
  const twin = awaiting.find(
    (order) => !taken.has(order.id) && order.channel_account_id !== held.channel_account_id,
  ) as OrderRecord;
  twin.order_id_on_channel = held.order_id_on_channel;
  const shipped = orders.find((order) => order.status === 'shipped' && recent(order)) as OrderRecord;
  const canceled = orders.find((order) => order.status === 'canceled' && recent(order)) as OrderRecord;
  expect([byId, held, twin, shipped, canceled].every(Boolean)).toBe(true);
  return { one, two, three, byId, held, twin, shipped, canceled };
}

function exportFile(state: ReturnType<typeof storeState>): string {
  const values: Record<string, string> = {
    NUM_1: state.one.order_id_on_channel,
    NUM_2: state.two.order_id_on_channel,
    NUM_3: state.three.order_id_on_channel,
    ORDER_4: state.byId.id,
    NUM_5: state.shipped.order_id_on_channel,
    NUM_6: state.canceled.order_id_on_channel,
    NUM_8: state.held.order_id_on_channel,
  };
  let text = readFileSync(FIXTURE, 'utf8');
  for (const [placeholder, value] of Object.entries(values)) text = text.replaceAll(placeholder, value);
  const path = join(tempDir(), 'shipstation.csv');
  writeFileSync(path, text);
  return path;
}

const fulfillPosts = () => emu.requests({ method: 'POST', path: /^\/orders\/[^/]+\/fulfillment$/ });
const LIVE_OF: Record<string, string> = {
  would_send: 'updated',
  would_skip: 'skipped',
  would_fail: 'failed',
};

describe('orders fulfill --file with the marketplaces’ order numbers', () => {
  it('reads Order Number without --map; the dry run says what the live run then does; a rerun skips them', async () => {
    const state = storeState();
    const file = exportFile(state);
    const env = envFor(emu);
    const dir = tempDir();

    const dry = await runSvc(
      ['orders', 'fulfill', '--file', file, '--dry-run', '--report', join(dir, 'dry.csv'), '--json'],
      { env },
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('order_id from "Order Number"');
    expect(dry.stderr).toMatch(
      /7 lines name orders by their channel number: resolved with \d+ list requests?/,
    );
    expect(fulfillPosts()).toHaveLength(0);
    const predicted = reportRows(join(dir, 'dry.csv'));
    expect(predicted.map((row) => row[2])).toEqual([
      'would_send',
      'would_send',
      'would_send',
      'would_send',
      'would_skip',
      'would_fail',
      'would_fail',
      'would_fail',
    ]);
    expect(predicted[4][4]).toContain(`already shipped with tracking ${state.shipped.tracking?.number}`);
    expect(predicted[5][4]).toContain('canceled');
    expect(predicted[6][4]).toContain('no order has this number on any channel');
    expect(predicted[7][4]).toContain(state.held.channel_account_id);
    expect(predicted[7][4]).toContain(state.twin.channel_account_id);
    expect(predicted[7][4]).toContain('--channel-account');
    expect(JSON.parse(dry.stdout)).toMatchObject({
      orders: 8,
      would_send: 4,
      would_skip: 1,
      would_fail: 3,
      order_numbers: { lines: 7 },
    });

    const live = await runSvc(['orders', 'fulfill', '--file', file, '--report', join(dir, 'live.csv')], {
      env,
    });
    expect(live.code, live.stderr).toBe(3);
    const done = reportRows(join(dir, 'live.csv'));
    expect(done.map((row) => [row[0], row[1], LIVE_OF[row[2]] ?? row[2], row[3], row[4]])).toEqual(
      predicted.map((row) => [row[0], row[1], LIVE_OF[row[2]], row[3], row[4]]),
    );
    // Exactly the right orders got one fulfilment each.
    const posted = fulfillPosts().map((request) => request.path.split('/')[2]);
    expect(posted.sort()).toEqual([state.one.id, state.two.id, state.three.id, state.byId.id].sort());
    for (const order of [state.one, state.two, state.three, state.byId])
      expect(emu.store.orders.get(order.id)?.status).toBe('shipped');
    for (const order of [state.held, state.twin])
      expect(emu.store.orders.get(order.id)?.status).toBe('awaiting_shipment');

    const again = await runSvc(['orders', 'fulfill', '--file', file, '--report', join(dir, 'again.csv')], {
      env,
    });
    expect(again.code, again.stderr).toBe(3);
    const rerun = reportRows(join(dir, 'again.csv'));
    expect(rerun.slice(0, 5).map((row) => row[2])).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
    expect(fulfillPosts().filter((request) => request.status === 200)).toHaveLength(4);
  });

  it('with --channel-account the number two accounts hold names one order', async () => {
    const state = storeState();
    const path = join(tempDir(), 'one.csv');
    writeFileSync(
      path,
      `Order #,Carrier,Tracking Number\r\n"${state.held.order_id_on_channel}",UPS,1ZPICK\r\n`,
    );
    const result = await runSvc(
      ['orders', 'fulfill', '--file', path, '--channel-account', state.twin.channel_account_id, '--json'],
      { env: envFor(emu) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(emu.store.orders.get(state.twin.id)?.tracking?.number).toBe('1ZPICK');
    expect(emu.store.orders.get(state.held.id)?.status).toBe('awaiting_shipment');
  });
});
