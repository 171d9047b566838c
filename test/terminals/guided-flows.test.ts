/**
 * The guided flows as a person meets them, black box under a pseudo-terminal: `orders fulfill`
 * with no id and no --file, `listings retry` with no --error-code, and the largest changes in
 * `inventory push`'s question. The steps themselves are driven in-process in
 * test/commands/orders/fulfill.test.ts, listings/retry.test.ts and inventory/push.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { call } from '../helpers/service-api.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';
import { type Keystroke, runInTerminal } from '../helpers/terminal.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const CTRL_C = '\u0003';
const CTRL_U = '\u0015';
const DOWN = '\u001b[B';
const ALARMING = /unexpected error|force closed|ExitPromptError|at .*\.js:\d+/;

const awaitingShipment = () =>
  [...emu.store.orders.values()].filter((order) => order.status === 'awaiting_shipment');

const fulfillPosts = () => emu.requests({ method: 'POST', path: /^\/orders\/[^/]+\/fulfillment$/ });

/** The keys that choose two orders by search and give each a carrier (UPS, then USPS) and a tracking number. */
function shipTwo(first: string, second: string): Keystroke[] {
  return [
    { when: /Orders to ship/, keys: first },
    { when: new RegExp(`0 chosen of \\d+ · 1 match "${first}"`), keys: ' ' },
    { when: /1 chosen of/, keys: `${CTRL_U}${second}` },
    { when: new RegExp(`1 chosen of \\d+ · 1 match "${second}"`), keys: ' ' },
    { when: /2 chosen of/, keys: '\r' },
    { when: /Carrier for .*\[1\/2\]/, keys: '\r' },
    { when: /Tracking number for .*\[1\/2\]/, keys: '1ZGUIDED0001\r' },
    { when: /Carrier for .*\[2\/2\]/, keys: `${DOWN}\r` },
    { when: /Tracking number for .*\[2\/2\]/, keys: '9400GUIDED0002\r' },
    { when: /\(y\/N\)/, keys: 'y\r' },
  ];
}

describe('orders fulfill with no id and no --file, at a terminal', () => {
  it('two orders chosen by search, a carrier and tracking each, one yes: exactly those two shipped with those trackings', async () => {
    const awaiting = awaitingShipment();
    expect(awaiting.length).toBeGreaterThan(2);
    const [first, second] = awaiting;
    const result = await runInTerminal(['orders', 'fulfill'], {
      env: envFor(emu),
      keys: shipTwo(first.id, second.id),
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toMatch(ALARMING);
    expect(result.output).toMatch(/Mark 2 orders shipped with a LIVE key/);
    expect(
      fulfillPosts()
        .map((record) => record.path)
        .sort(),
    ).toEqual([`/orders/${first.id}/fulfillment`, `/orders/${second.id}/fulfillment`].sort());
    expect(emu.store.orders.get(first.id)?.tracking).toMatchObject({
      number: '1ZGUIDED0001',
      carrier: 'UPS',
    });
    expect(emu.store.orders.get(second.id)?.tracking).toMatchObject({
      number: '9400GUIDED0002',
      carrier: 'USPS',
    });
    for (const order of awaiting.slice(2))
      expect(emu.store.orders.get(order.id)?.status).toBe('awaiting_shipment');
  });

  it('interrupted after sending: says what was shipped and the --file command that finishes the rest', async () => {
    const [first, second] = awaitingShipment();
    const env = envFor(emu);
    // The second order's answer is held, so the interrupt comes between the two.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    emu.faults.inject({
      method: 'POST',
      path: `/orders/${second.id}/fulfillment`,
      kind: 'delay',
      delayMs: 20_000,
      until: held,
    });
    const result = await runInTerminal(['orders', 'fulfill'], {
      env,
      keys: shipTwo(first.id, second.id),
      signalWhen: { when: () => fulfillPosts().some((r) => r.status === 200), signal: 'SIGINT' },
    });
    release();
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(result.output).toMatch(/stopped before the end with 1 order of 2 shipped/);
    const finish = /`svc orders fulfill --file (\S+)` finishes the rest/.exec(result.output);
    expect(finish, result.output).not.toBeNull();
    const rest = readFileSync(finish?.[1] as string, 'utf8');
    expect(rest).toBe(`order_id,tracking_number,carrier\r\n${second.id},9400GUIDED0002,USPS\r\n`);
    const finished = await runSvc(['orders', 'fulfill', '--file', finish?.[1] as string], { env });
    expect(finished.code, finished.stderr).toBe(0);
    expect(emu.store.orders.get(second.id)?.tracking).toMatchObject({
      number: '9400GUIDED0002',
      carrier: 'USPS',
    });
    expect(emu.store.orders.get(first.id)?.tracking).toMatchObject({
      number: '1ZGUIDED0001',
      carrier: 'UPS',
    });
  });

  it('Ctrl-C at the list: exit 130, nothing alarming, nothing sent', async () => {
    const result = await runInTerminal(['orders', 'fulfill'], {
      env: envFor(emu),
      keys: [{ when: /Orders to ship/, keys: CTRL_C }],
    });
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(result.output).toMatch(/nothing was sent/);
    expect(fulfillPosts()).toHaveLength(0);
  });

  it('with CI=true it does not ask: exit 2 naming the order id and --file, nothing read or sent', async () => {
    const result = await runInTerminal(['orders', 'fulfill'], { env: { ...envFor(emu), CI: 'true' } });
    expect(result.code, result.output).toBe(2);
    expect(result.output).toMatch(/order id/);
    expect(result.output).toMatch(/--file shipments\.csv/);
    expect(result.output).toMatch(/CI variable is set/);
    expect(emu.requests({ path: /^\/orders/ })).toHaveLength(0);
  });
});

describe('listings retry with no --error-code, at a terminal', () => {
  it('lists the errors summary; the choice resyncs exactly the listings --error-code C --channel K would', async () => {
    const env = envFor(emu);
    const photo = 'photo_required_for_channel';
    // One product gets its photo: its listing looks fixed, the others unchanged (held back).
    const failing = [...emu.store.listings.values()].filter(
      (listing) =>
        listing.status === 'error' &&
        listing.channel === 'etsy' &&
        listing.issues.some((issue) => issue.code === photo),
    );
    expect(failing.length).toBeGreaterThan(1);
    const image = await call(emu, 'PATCH', `/products/${failing[0].product_id}`, {
      body: { images: [{ url: 'https://images.example.com/fixed.jpg' }] },
    });
    expect(image.status).toBe(200);
    // What the flag form would send, and where its group stands in the summary.
    const planned = await runSvc(
      ['listings', 'retry', '--error-code', photo, '--channel', 'etsy', '--dry-run', '--json'],
      { env },
    );
    expect(planned.code, planned.stderr).toBe(0);
    const wouldSend = (JSON.parse(planned.stdout) as Array<{ id: string; retry: { send: boolean } }>)
      .filter((listing) => listing.retry.send)
      .map((listing) => listing.id)
      .sort();
    expect(wouldSend.length).toBeGreaterThan(0);
    const errors = await runSvc(['listings', 'errors', '--json'], { env });
    const groups = (JSON.parse(errors.stdout) as Array<{ error_code: string; channel: string }>).filter(
      (group) => group.error_code !== '(none)',
    );
    const place = groups.findIndex((group) => group.error_code === photo && group.channel === 'etsy');
    expect(place).toBeGreaterThanOrEqual(0);
    const patchesBefore = emu.requests({ route: 'PATCH /listings/{id}' }).length;

    const result = await runInTerminal(['listings', 'retry'], {
      env,
      keys: [
        { when: /Retry which listings in error\?/, keys: `${DOWN.repeat(place)}\r` },
        { when: /\(y\/N\)/, keys: 'y\r' },
      ],
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).not.toMatch(ALARMING);
    // The summary, with the check of the causes.
    expect(result.output).toMatch(/CODE\s+CHANNEL\s+LISTINGS\s+CAUSE/);
    expect(result.output).toMatch(
      new RegExp(`${photo}\\s+etsy\\s+${failing.length}\\s+1 looks fixed, ${failing.length - 1} unchanged`),
    );
    expect(result.output).toMatch(
      new RegExp(`Running svc listings retry --error-code ${photo} --channel etsy`),
    );
    const patched = emu
      .requests({ route: 'PATCH /listings/{id}' })
      .slice(patchesBefore)
      .map((record) => decodeURIComponent(record.path.replace('/listings/', '')))
      .sort();
    expect(patched).toEqual(wouldSend);
  });
});

describe('listings retry chosen at a terminal, interrupted after sending', () => {
  it('names the --error-code C --channel K command that runs the rest', async () => {
    const env = envFor(emu);
    const photo = 'photo_required_for_channel';
    const errors = await runSvc(['listings', 'errors', '--json'], { env });
    const groups = (JSON.parse(errors.stdout) as Array<{ error_code: string; channel: string }>).filter(
      (group) => group.error_code !== '(none)',
    );
    const place = groups.findIndex((group) => group.error_code === photo && group.channel === 'etsy');
    const group = [...emu.store.listings.values()].filter(
      (listing) =>
        listing.status === 'error' &&
        listing.channel === 'etsy' &&
        listing.issues.some((issue) => issue.code === photo),
    );
    // One resync's answer is held, so the interrupt comes while it is in flight.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const last = group[group.length - 1];
    emu.faults.inject({
      method: 'PATCH',
      path: `/listings/${last.id}`,
      kind: 'delay',
      delayMs: 20_000,
      until: held,
    });
    const result = await runInTerminal(['listings', 'retry', '--include-unfixed'], {
      env,
      keys: [
        { when: /Retry which listings in error\?/, keys: `${DOWN.repeat(place)}\r` },
        { when: /\(y\/N\)/, keys: 'y\r' },
      ],
      signalWhen: {
        when: () => emu.requests({ route: 'PATCH /listings/{id}' }).some((record) => record.status === 200),
        signal: 'SIGINT',
      },
    });
    release();
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(result.output).toMatch(new RegExp(`Resynced \\d+ of ${group.length} listings`));
    expect(result.output).toContain(
      `\`svc listings retry --include-unfixed --error-code ${photo} --channel etsy\` runs it again`,
    );
    const ids = new Set(group.map((listing) => listing.id));
    for (const record of emu.requests({ route: 'PATCH /listings/{id}' }))
      expect(ids.has(decodeURIComponent(record.path.replace('/listings/', '')))).toBe(true);
  });
});

describe('inventory push at a terminal', () => {
  it('its question shows the largest changes beside the cost, zeroings first; a no sends nothing', async () => {
    const skus = emu.store.allSkus().slice(0, 14);
    // One SKU in stock now goes to 0; every other row moves up by thousands.
    const zeroed = skus.findLast((sku) => (emu.store.inventoryBySku(sku)?.quantity ?? 0) > 0) as string;
    expect(zeroed).toBeDefined();
    const rows = skus.map((sku, index) => `${sku},${sku === zeroed ? 0 : 5000 + index}`);
    const path = join(tempDir('svc-guided-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${rows.join('\n')}\n`);
    const result = await runInTerminal(['inventory', 'push', path], {
      env: envFor(emu),
      keys: [{ when: /\(y\/N\)/, keys: 'n\r' }],
    });
    expect(result.code, result.output).toBe(2);
    expect(result.output).toMatch(/push canceled; nothing was sent/);
    const lines = result.output.split(/\r?\n/);
    const heading = lines.findIndex((line) => /Largest changes \(10 of 14, zeroings first\):/.test(line));
    expect(heading, result.output).toBeGreaterThanOrEqual(0);
    // The zeroing first, then the largest moves.
    expect(lines[heading + 1]).toMatch(new RegExp(`^\\s+${zeroed}\\s+quantity \\d+ → 0`));
    expect(lines[heading + 2]).toMatch(/quantity \d+ → 50\d\d/);
    const question = lines.findIndex((line) => /Push 14 SKUs in 1 request with a LIVE key/.test(line));
    expect(question).toBeGreaterThan(heading + 10);
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' })).toHaveLength(0);
  });
});
