/**
 * `orders fulfill --file` with a shipping tool's own export: the order column holds the
 * marketplaces' order numbers (and svc ids, mixed), read without --map; numbers are resolved
 * before anything is sent; the dry run's verdicts are what the live run then does. Then one
 * order at a time, a file, a dry run of one, and the guided steps at a terminal (keys typed
 * in-process; what only a real terminal shows is in test/terminals/guided-flows.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type RunningEmulator } from '../../../src/emulator/index.js';
import type { OrderRecord } from '../../../src/emulator/model.js';
import { emulator, emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { KEYS, plainText, runAtKeyboard } from '../../helpers/keyboard.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false, orders: 400 });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

/** The seeded defaults, for the describes that need nothing more (each resets it before its tests). */
let plain: RunningEmulator;
beforeAll(async () => {
  plain = await emulator({ rateLimit: false });
});
afterAll(() => plain.close());

/** The orders awaiting shipment, oldest first, as the guided fulfil lists them. */
const awaitingShipment = () =>
  [...plain.store.orders.values()]
    .filter((order) => order.status === 'awaiting_shipment')
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));

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

/** The fulfilments a store was sent (the file's main store unless named). */
const fulfillPosts = (store = emu) =>
  store.requests({ method: 'POST', path: /^\/orders\/[^/]+\/fulfillment$/ });
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

/** A shipments CSV in a fresh temp dir: header, then one line per row. */
function shipmentsFile(rows: string[][], header = 'order_id,tracking_number,carrier,tracking_url'): string {
  const path = join(tempDir('svc-ship-'), 'shipments.csv');
  writeFileSync(path, `${header}\n${rows.map((row) => row.join(',')).join('\n')}\n`);
  return path;
}

describe('orders fulfill', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    // A frozen clock never drains a bucket: rate limiting is tested elsewhere.
    emu = await emulator({ orders: 250, rateLimit: false, clock: createManualClock() });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  const ordersWith = (status: string): OrderRecord[] =>
    [...emu.store.orders.values()].filter((order) => order.status === status);
  const fulfillPosts = (id?: string) =>
    emu.requests({
      method: 'POST',
      path: id ? `/orders/${id}/fulfillment` : /^\/orders\/[^/]+\/fulfillment$/,
    });

  it('ships one order; a repeat with the same tracking is done, another tracking is refused (exit 1)', async () => {
    const order = ordersWith('awaiting_shipment')[0];
    const env = envFor(emu);
    const args = ['orders', 'fulfill', order.id, '--tracking-number', '1Z001', '--carrier', 'UPS'];
    const first = await runSvc(
      [...args, '--tracking-url', 'https://www.ups.com/track?tracknum=1Z001', '--json'],
      { env },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      id: order.id,
      status: 'shipped',
      tracking: { number: '1Z001' },
    });
    expect(emu.store.orders.get(order.id)?.tracking?.url).toBe('https://www.ups.com/track?tracknum=1Z001');
    const again = await runSvc(args, { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already shipped with tracking 1Z001');
    const other = await runSvc(
      ['orders', 'fulfill', order.id, '--tracking-number', '1Z999', '--carrier', 'UPS'],
      { env },
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('already shipped with tracking 1Z001');
  });

  it('a shipments file with one canceled order ships the others and exits 3 naming it; run again, it skips what shipped', async () => {
    const ready = ordersWith('awaiting_shipment').slice(0, 4);
    const canceled = ordersWith('canceled')[0];
    const rows = ready.map((o, i) => [
      o.id,
      `1Z10${i}`,
      'UPS',
      `https://www.ups.com/track?tracknum=1Z10${i}`,
    ]);
    rows.splice(2, 0, [canceled.id, '940011', 'USPS', '']);
    const file = shipmentsFile(rows);
    const report = join(tempDir('svc-rep-'), 'report.csv');
    const env = envFor(emu);
    const first = await runSvc(['orders', 'fulfill', '--file', file, '--report', report], { env });
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toContain(canceled.id);
    expect(first.stderr).toMatch(/line 4: .*canceled/);
    expect(first.stderr).toMatch(/5 orders in \d+ requests .*: 4 updated, 1 failed/);
    for (const [i, o] of ready.entries())
      expect(emu.store.orders.get(o.id)?.tracking?.number).toBe(`1Z10${i}`);
    expect(emu.store.orders.get(canceled.id)?.status).toBe('canceled');
    const lines = readFileSync(report, 'utf8').trim().split(/\r?\n/);
    expect(lines[0]).toBe('line,key,status,code,message');
    expect(lines.filter((l) => l.includes(',updated,'))).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(`4,${canceled.id},failed,invalid_state,`))).toBeDefined();
    // Each POST carried its own Idempotency-Key.
    expect(new Set(emu.idempotencyKeys({ method: 'POST' })).size).toBe(5);

    const second = await runSvc(['orders', 'fulfill', '--file', file, '--json'], { env });
    expect(second.code).toBe(3);
    expect(JSON.parse(second.stdout)).toMatchObject({ total: 5, updated: 0, skipped: 4, failed: 1 });
  });

  it('a fulfillment whose connection drops after it was applied is read back, not sent twice', async () => {
    const [single, viaFile] = ordersWith('awaiting_shipment');
    const env = envFor(emu);
    emu.faults.inject({ method: 'POST', path: /\/fulfillment$/, kind: 'drop_after', times: 1 });
    const result = await runSvc(
      ['orders', 'fulfill', single.id, '--tracking-number', 'T1', '--carrier', 'DHL'],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(fulfillPosts(single.id)).toHaveLength(1);
    const reads = emu.requests({ method: 'GET', path: `/orders/${single.id}` });
    expect(reads).toHaveLength(1);
    expect(reads[0].seq).toBeGreaterThan(fulfillPosts(single.id)[0].seq);
    expect(emu.store.orders.get(single.id)).toMatchObject({ status: 'shipped', tracking: { number: 'T1' } });
    // order.status_changed once: the marketplace heard of it once.
    const changes = [...emu.store.events.values()].filter(
      (e) => e.type === 'order.status_changed' && (e.data.object as { id: string }).id === single.id,
    );
    expect(changes.filter((e) => (e.data.object as { status: string }).status === 'shipped')).toHaveLength(1);

    emu.faults.inject({ method: 'POST', path: /\/fulfillment$/, kind: 'drop_after', times: 1 });
    const file = shipmentsFile([[viaFile.id, 'T2', 'DHL', '']]);
    const bulk = await runSvc(['orders', 'fulfill', '--file', file, '--json'], { env });
    expect(bulk.code, bulk.stderr).toBe(0);
    expect(JSON.parse(bulk.stdout)).toMatchObject({ total: 1, updated: 1, requests: 2 });
    expect(fulfillPosts(viaFile.id)).toHaveLength(1);
  });

  it('a missing carrier on one line stops the whole file (exit 2) and sends nothing', async () => {
    const [a, b, c] = ordersWith('awaiting_shipment');
    const file = shipmentsFile([
      [a.id, '1Z1', 'UPS', ''],
      [b.id, '1Z2', '', ''],
      [c.id, '1Z3', 'UPS', ''],
    ]);
    const report = join(tempDir('svc-fulfill-report-'), 'report.csv');
    const result = await runSvc(['orders', 'fulfill', '--file', file, '--report', report, '--json'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`line 3: missing carrier (order ${b.id})`);
    expect(emu.requests()).toHaveLength(0);
    // Nothing was sent, yet the report and the JSON error name the bad line.
    expect(readFileSync(report, 'utf8').trim().split('\r\n')).toEqual([
      'line,key,status,code,message',
      `3,${b.id},invalid,missing_carrier,missing carrier (order ${b.id})`,
    ]);
    expect(JSON.parse(result.stderr.trimEnd().split('\n').at(-1) ?? '').error.problems).toEqual([
      { line: 3, key: b.id, code: 'missing_carrier', message: `missing carrier (order ${b.id})` },
    ]);
  });

  it('--dry-run checks the file and sends nothing', async () => {
    const [a] = ordersWith('awaiting_shipment');
    const file = shipmentsFile([[a.id, '1Z1', 'UPS', '']]);
    const result = await runSvc(['orders', 'fulfill', '--file', file, '--dry-run', '--json'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      orders: 1,
      would_send: 1,
      requests: 1,
      write_quota: 0,
    });
    // Reads only: the order is read to say what the run would do with it.
    expect(emu.requests().map((request) => request.method)).toEqual(['GET']);
  });

  it('an unknown order id exits 1 naming it; bad flags exit 2 before sending', async () => {
    const env = envFor(emu);
    const unknown = await runSvc(
      ['orders', 'fulfill', 'ord_doesnotexist', '--tracking-number', '1', '--carrier', 'UPS'],
      { env },
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('ord_doesnotexist');
    const noCarrier = await runSvc(['orders', 'fulfill', 'ord_x', '--tracking-number', '1'], { env });
    expect(noCarrier.code).toBe(2);
    expect(noCarrier.stderr).toContain('--carrier');
    const badUrl = await runSvc(
      ['orders', 'fulfill', 'ord_x', '--tracking-number', '1', '--carrier', 'UPS', '--tracking-url', 'nope'],
      { env },
    );
    expect(badUrl.code).toBe(2);
    expect((await runSvc(['orders', 'fulfill'], { env })).code).toBe(2);
    expect(fulfillPosts()).toHaveLength(1);
  });

  it('a key without orders:write exits 4 and changes nothing', async () => {
    const [a, b] = ordersWith('awaiting_shipment');
    const env = { ...envFor(emu), SVC_API_KEY: emu.createKey({ scopes: ['orders:read'] }) };
    const single = await runSvc(['orders', 'fulfill', a.id, '--tracking-number', '1', '--carrier', 'UPS'], {
      env,
    });
    expect(single.code).toBe(4);
    expect(single.stderr).toContain('orders:write');
    const file = shipmentsFile([[b.id, '2', 'UPS', '']]);
    const bulk = await runSvc(['orders', 'fulfill', '--file', file], { env });
    expect(bulk.code).toBe(4);
    expect(emu.store.orders.get(a.id)?.status).toBe('awaiting_shipment');
    expect(emu.store.orders.get(b.id)?.status).toBe('awaiting_shipment');
  });
});

describe('orders fulfill ID --dry-run', () => {
  beforeEach(() => plain.reset());

  it('shows the request it would send and sends nothing, as the file form does', async () => {
    const order = [...plain.store.orders.values()].find((each) => each.status === 'awaiting_shipment');
    expect(order).toBeDefined();
    const id = order?.id as string;
    const args = ['orders', 'fulfill', id, '--tracking-number', '1Z999', '--carrier', 'UPS', '--dry-run'];
    const text = await runSvc([...args, '-o', 'table'], { env: envFor(plain) });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(`Dry run: would send POST /orders/${id}/fulfillment`);
    expect(text.stderr).toContain('Nothing was sent.');
    const json = await runSvc([...args, '--json'], { env: envFor(plain) });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ tracking: { number: '1Z999', carrier: 'UPS' } });
    expect(plain.requests({ method: 'POST' })).toEqual([]);
    expect(plain.store.orders.get(id)?.status).toBe('awaiting_shipment');
  });

  it('still checks the tracking before saying anything would be sent', async () => {
    const result = await runSvc(['orders', 'fulfill', 'ord_123', '--carrier', 'UPS', '--dry-run'], {
      env: envFor(plain),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--tracking-number is required');
  });
});

/** Emulators of a test's own, for a store with nothing awaiting shipment. */
const another = emulatorPerTest({ rateLimit: false });
const tempPath = (name: string) => join(tempDir('svc-guided-'), name);

describe('orders fulfill at a terminal: the steps', () => {
  beforeEach(() => plain.reset());

  it('the list: every order awaiting shipment with channel, number on the channel, age, items and total; no buyer names', async () => {
    const result = await runAtKeyboard(['orders', 'fulfill'], {
      env: envFor(plain),
      keys: [{ when: /Orders to ship/, keys: KEYS.ctrlC }],
    });
    expect(result.code).toBe(130);
    const screen = plainText(result.screen);
    expect(screen).toMatch(/CHANNEL\s+ORDER ON CHANNEL\s+AGE\s+ITEMS\s+TOTAL/);
    const awaiting = awaitingShipment();
    expect(screen).toContain(`${awaiting.length} orders awaiting shipment`);
    for (const order of awaiting) {
      const items = order.lines.reduce((sum, line) => sum + line.quantity, 0);
      expect(screen).toMatch(
        new RegExp(
          `${order.channel}\\s+${literally(order.order_id_on_channel)}\\s+\\d+[smhd]\\s+${items}\\s+${order.total}`,
        ),
      );
      if (order.buyer?.name) expect(screen).not.toContain(order.buyer.name);
    }
    expect(screen).not.toMatch(/BUYER/);
    expect(fulfillPosts(plain)).toHaveLength(0);
  });

  it('--show-buyer adds the buyer names to the list', async () => {
    const result = await runAtKeyboard(['orders', 'fulfill', '--show-buyer'], {
      env: envFor(plain),
      keys: [{ when: /Orders to ship/, keys: KEYS.ctrlC }],
    });
    const screen = plainText(result.screen);
    expect(screen).toMatch(/TOTAL\s+BUYER/);
    const named = awaitingShipment().filter((order) => order.buyer?.name);
    expect(named.length).toBeGreaterThan(0);
    for (const order of named) expect(screen).toContain(order.buyer?.name);
  });

  it('enter with nothing chosen asks again; a search nothing matches says so', async () => {
    const result = await runAtKeyboard(['orders', 'fulfill'], {
      env: envFor(plain),
      keys: [
        { when: /Orders to ship/, keys: KEYS.enter },
        { when: /choose at least one order/, keys: 'no-such-order' },
        { when: /No match for "no-such-order"/, keys: KEYS.ctrlC },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code).toBe(130);
    expect(fulfillPosts(plain)).toHaveLength(0);
  });

  it('arrows and space choose; "Other…" takes a carrier by name; a blank tracking number is asked again; then ships that order only', async () => {
    const [first] = awaitingShipment();
    const result = await runAtKeyboard(['orders', 'fulfill'], {
      env: envFor(plain),
      keys: [
        { when: /Orders to ship/, keys: KEYS.space },
        { when: /1 chosen of/, keys: KEYS.enter },
        { when: /Carrier for/, keys: KEYS.up + KEYS.enter },
        { when: /Carrier name/, keys: `Parcelforce${KEYS.enter}` },
        { when: /Tracking number for/, keys: `   ${KEYS.enter}` },
        { when: /type the tracking number/, keys: `PF123456${KEYS.enter}` },
        { when: /\(y\/N\)/, keys: `y${KEYS.enter}` },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code, plainText(result.screen)).toBe(0);
    expect(fulfillPosts(plain).map((record) => record.path)).toEqual([`/orders/${first.id}/fulfillment`]);
    expect(plain.store.orders.get(first.id)?.tracking).toMatchObject({
      number: 'PF123456',
      carrier: 'Parcelforce',
    });
    expect(plainText(result.screen)).toMatch(/Ship 1 order:\n {2}.*\(.*\): Parcelforce PF123456/);
  });

  it('--save writes each entry as it is made; Ctrl-C before the end sends nothing and says how to ship what was saved', async () => {
    const [first, second] = awaitingShipment();
    const save = tempPath('shipments.csv');
    const env = envFor(plain);
    const result = await runAtKeyboard(['orders', 'fulfill', '--save', save], {
      env,
      keys: [
        { when: /Orders to ship/, keys: first.id },
        { when: /0 chosen of \d+ · 1 match/, keys: KEYS.space },
        { when: /1 chosen of/, keys: KEYS.ctrlU + second.id },
        { when: /1 chosen of \d+ · 1 match/, keys: KEYS.space },
        { when: /2 chosen of/, keys: KEYS.enter },
        { when: /Carrier for/, keys: KEYS.enter },
        { when: /Tracking number for/, keys: `1ZSAVED01${KEYS.enter}` },
        { when: /Carrier for/, keys: KEYS.ctrlC },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code).toBe(130);
    expect(fulfillPosts(plain)).toHaveLength(0);
    expect(readFileSync(save, 'utf8')).toBe(
      `order_id,tracking_number,carrier\r\n${first.id},1ZSAVED01,UPS\r\n`,
    );
    expect(plainText(result.screen)).toContain(
      `The 1 shipment entered so far is in ${save}; svc orders fulfill --file ${save} ships it.`,
    );
    // The saved file is a shipments file as --file reads it.
    const finished = await runSvc(['orders', 'fulfill', '--file', save], { env });
    expect(finished.code, finished.stderr).toBe(0);
    expect(plain.store.orders.get(first.id)?.tracking).toMatchObject({ number: '1ZSAVED01', carrier: 'UPS' });
    expect(plain.store.orders.get(second.id)?.status).toBe('awaiting_shipment');
  });

  it("--save refuses a file that exists before asking anything (an earlier session's entries)", async () => {
    const save = tempPath('shipments.csv');
    writeFileSync(save, 'order_id,tracking_number,carrier\r\nord_x,1,UPS\r\n');
    const result = await runAtKeyboard(['orders', 'fulfill', '--save', save], { env: envFor(plain) });
    expect(result.code).toBe(2);
    expect(result.screen).toContain(`finish it with svc orders fulfill --file ${save}`);
    expect(result.screen).not.toMatch(/Orders to ship/);
  });

  it('--dry-run: what was entered is shown as the dry run of a file, and nothing is sent', async () => {
    const [first] = awaitingShipment();
    const result = await runAtKeyboard(['orders', 'fulfill', '--dry-run'], {
      env: envFor(plain),
      keys: [
        { when: /Orders to ship/, keys: KEYS.space + KEYS.enter },
        { when: /Carrier for/, keys: KEYS.enter },
        { when: /Tracking number for/, keys: `1ZDRY${KEYS.enter}` },
      ],
    });
    expect(result.code, plainText(result.screen)).toBe(0);
    const screen = plainText(result.screen);
    expect(screen).toContain('Dry run: 1 order would be fulfilled in 1 request');
    expect(screen).toContain(`${first.id} UPS 1ZDRY`);
    expect(fulfillPosts(plain)).toHaveLength(0);
  });

  it('with no order awaiting shipment it says so and asks nothing (exit 0)', async () => {
    const empty = await another({ orders: 0 });
    const result = await runAtKeyboard(['orders', 'fulfill'], { env: envFor(empty) });
    expect(result.code).toBe(0);
    expect(result.screen).toContain('No order is awaiting shipment; nothing to fulfill.');
  });
});

describe('orders fulfill with no id and no --file, without a person to ask', () => {
  beforeEach(() => plain.reset());

  it('piped, --no-input or --yes: exit 2 naming the id or --file, and why svc did not ask; nothing read', async () => {
    const env = envFor(plain);
    const piped = await runSvc(['orders', 'fulfill'], { env });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/give an order id and its tracking .* or --file shipments\.csv/);
    expect(piped.stderr).toContain('standard input is not a terminal');
    const noInput = await runAtKeyboard(['orders', 'fulfill', '--no-input'], { env });
    expect(noInput.code).toBe(2);
    expect(noInput.screen).toContain('--no-input is given');
    const yes = await runAtKeyboard(['orders', 'fulfill', '--yes'], { env });
    expect(yes.code).toBe(2);
    expect(yes.screen).toContain('--yes is given');
    expect(plain.requests({ path: /^\/orders/ })).toHaveLength(0);
  });

  it('--save goes only with the questions', async () => {
    const [first] = awaitingShipment();
    const result = await runSvc(
      [
        'orders',
        'fulfill',
        first.id,
        '--tracking-number',
        '1',
        '--carrier',
        'UPS',
        '--save',
        tempPath('s.csv'),
      ],
      { env: envFor(plain) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--save keeps what is entered at a terminal/);
    expect(fulfillPosts(plain)).toHaveLength(0);
  });
});

/** `text` as a regular expression that matches it literally. */
function literally(text: string | null | undefined): string {
  return (text ?? '').replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
}
