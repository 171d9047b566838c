/**
 * The guided flows step by step, in-process: svc believes it is at a terminal and the keys are
 * typed into the prompts' own input stream (test/helpers/keyboard.ts). What only a real
 * terminal shows is in guided-terminal.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, emulatorPerTest, envFor } from '../helpers/emulator.js';
import { KEYS, plainText, runAtKeyboard } from '../helpers/keyboard.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());
const another = emulatorPerTest({ rateLimit: false });

const awaitingShipment = () =>
  [...emu.store.orders.values()]
    .filter((order) => order.status === 'awaiting_shipment')
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
const fulfillPosts = () => emu.requests({ method: 'POST', path: /^\/orders\/[^/]+\/fulfillment$/ });
const tempPath = (name: string) => join(tempDir('svc-guided-'), name);

describe('orders fulfill at a terminal: the steps', () => {
  it('the list: every order awaiting shipment with channel, number on the channel, age, items and total; no buyer names', async () => {
    const result = await runAtKeyboard(['orders', 'fulfill'], {
      env: envFor(emu),
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
    expect(fulfillPosts()).toHaveLength(0);
  });

  it('--show-buyer adds the buyer names to the list', async () => {
    const result = await runAtKeyboard(['orders', 'fulfill', '--show-buyer'], {
      env: envFor(emu),
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
      env: envFor(emu),
      keys: [
        { when: /Orders to ship/, keys: KEYS.enter },
        { when: /choose at least one order/, keys: 'no-such-order' },
        { when: /No match for "no-such-order"/, keys: KEYS.ctrlC },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code).toBe(130);
    expect(fulfillPosts()).toHaveLength(0);
  });

  it('arrows and space choose; "Other…" takes a carrier by name; a blank tracking number is asked again; then ships that order only', async () => {
    const [first] = awaitingShipment();
    const result = await runAtKeyboard(['orders', 'fulfill'], {
      env: envFor(emu),
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
    expect(fulfillPosts().map((record) => record.path)).toEqual([`/orders/${first.id}/fulfillment`]);
    expect(emu.store.orders.get(first.id)?.tracking).toMatchObject({
      number: 'PF123456',
      carrier: 'Parcelforce',
    });
    expect(plainText(result.screen)).toMatch(/Ship 1 order:\n {2}.*\(.*\): Parcelforce PF123456/);
  });

  it('--save writes each entry as it is made; Ctrl-C before the end sends nothing and says how to ship what was saved', async () => {
    const [first, second] = awaitingShipment();
    const save = tempPath('shipments.csv');
    const env = envFor(emu);
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
    expect(fulfillPosts()).toHaveLength(0);
    expect(readFileSync(save, 'utf8')).toBe(
      `order_id,tracking_number,carrier\r\n${first.id},1ZSAVED01,UPS\r\n`,
    );
    expect(plainText(result.screen)).toContain(
      `The 1 shipment entered so far is in ${save}; svc orders fulfill --file ${save} ships it.`,
    );
    // The saved file is a shipments file as --file reads it.
    const finished = await runSvc(['orders', 'fulfill', '--file', save], { env });
    expect(finished.code, finished.stderr).toBe(0);
    expect(emu.store.orders.get(first.id)?.tracking).toMatchObject({ number: '1ZSAVED01', carrier: 'UPS' });
    expect(emu.store.orders.get(second.id)?.status).toBe('awaiting_shipment');
  });

  it("--save refuses a file that exists before asking anything (an earlier session's entries)", async () => {
    const save = tempPath('shipments.csv');
    writeFileSync(save, 'order_id,tracking_number,carrier\r\nord_x,1,UPS\r\n');
    const result = await runAtKeyboard(['orders', 'fulfill', '--save', save], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.screen).toContain(`finish it with svc orders fulfill --file ${save}`);
    expect(result.screen).not.toMatch(/Orders to ship/);
  });

  it('--dry-run: what was entered is shown as the dry run of a file, and nothing is sent', async () => {
    const [first] = awaitingShipment();
    const result = await runAtKeyboard(['orders', 'fulfill', '--dry-run'], {
      env: envFor(emu),
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
    expect(fulfillPosts()).toHaveLength(0);
  });

  it('with no order awaiting shipment it says so and asks nothing (exit 0)', async () => {
    const empty = await another({ orders: 0 });
    const result = await runAtKeyboard(['orders', 'fulfill'], { env: envFor(empty) });
    expect(result.code).toBe(0);
    expect(result.screen).toContain('No order is awaiting shipment; nothing to fulfill.');
  });
});

describe('orders fulfill with no id and no --file, without a person to ask', () => {
  it('piped, --no-input or --yes: exit 2 naming the id or --file, and why svc did not ask; nothing read', async () => {
    const env = envFor(emu);
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
    expect(emu.requests({ path: /^\/orders/ })).toHaveLength(0);
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
      { env: envFor(emu) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--save keeps what is entered at a terminal/);
    expect(fulfillPosts()).toHaveLength(0);
  });
});

describe('listings retry at a terminal: the steps', () => {
  it('lists every group of the errors summary with its count and cause; the choice runs as its flags, and a no sends nothing', async () => {
    const env = envFor(emu);
    const errors = await runSvc(['listings', 'errors', '--json'], { env });
    const groups = JSON.parse(errors.stdout) as Array<{
      error_code: string;
      channel: string;
      listings: number;
    }>;
    expect(groups.length).toBeGreaterThan(1);
    const second = groups[1];
    const result = await runAtKeyboard(['listings', 'retry', '--include-unfixed'], {
      env,
      keys: [
        { when: /Retry which listings in error\?/, keys: KEYS.down + KEYS.enter },
        { when: /\(y\/N\)/, keys: `n${KEYS.enter}` },
      ],
    });
    expect(result.untyped).toEqual([]);
    expect(result.code).toBe(2);
    const screen = plainText(result.screen);
    for (const group of groups)
      expect(screen).toMatch(
        new RegExp(`${group.error_code}\\s+${group.channel}\\s+${group.listings}\\s+\\S`),
      );
    expect(screen).toContain(
      `Running svc listings retry --include-unfixed --error-code ${second.error_code} --channel ${second.channel}`,
    );
    expect(screen).toContain(
      `Found ${second.listings} listings in error with ${second.error_code} on ${second.channel}.`,
    );
    expect(screen).toContain('retry canceled; nothing was sent');
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('--channel narrows the summary to that channel and stays the one --channel of the run', async () => {
    const result = await runAtKeyboard(['listings', 'retry', '--channel', 'ebay', '--dry-run'], {
      env: envFor(emu),
      keys: [{ when: /Retry which listings in error\?/, keys: KEYS.enter }],
    });
    expect(result.code, plainText(result.screen)).toBe(0);
    const screen = plainText(result.screen);
    const listed = screen.slice(screen.indexOf('CODE'), screen.indexOf('Running'));
    expect(listed).toMatch(/ebay/);
    expect(listed).not.toMatch(/etsy|amazon|walmart/);
    expect(screen).toMatch(/Running svc listings retry --channel ebay --dry-run --error-code \S+\n/);
    expect(screen).toMatch(/Dry run: .* would be resynced/);
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('Ctrl-C at the list: exit 130, nothing sent', async () => {
    const result = await runAtKeyboard(['listings', 'retry'], {
      env: envFor(emu),
      keys: [{ when: /Retry which listings in error\?/, keys: KEYS.ctrlC }],
    });
    expect(result.code).toBe(130);
    expect(result.screen).toContain('nothing was sent');
    expect(emu.requests({ route: 'PATCH /listings/{id}' })).toHaveLength(0);
  });

  it('nothing in error within the flags: says so, asks nothing (exit 0)', async () => {
    const result = await runAtKeyboard(['listings', 'retry', '--channel', 'shopify'], { env: envFor(emu) });
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('No listings in error; nothing to retry.');
  });

  it('without a person to ask: exit 2 naming --error-code and svc listings errors', async () => {
    const result = await runSvc(['listings', 'retry'], { env: { ...envFor(emu), CI: 'true' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--error-code photo_required_for_channel \(svc listings errors lists them\)/,
    );
    expect(result.stderr).toContain('the CI variable is set');
    expect(emu.requests({ path: /^\/listings/ })).toHaveLength(0);
  });
});

describe('inventory push asked at a terminal', () => {
  it('reads the store first and shows the largest changes above the question; --yes neither asks nor reads', async () => {
    const skus = emu.store.allSkus().slice(0, 3);
    const path = tempPath('stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, index) => `${sku},${9000 + index}`).join('\n')}\n`);
    const env = envFor(emu);
    const asked = await runAtKeyboard(['inventory', 'push', path], {
      env,
      keys: [{ when: /\(y\/N\)/, keys: `y${KEYS.enter}` }],
    });
    expect(asked.code, plainText(asked.screen)).toBe(0);
    const screen = plainText(asked.screen);
    expect(screen).toContain('All 3 changes, zeroings first:');
    expect(screen.indexOf(skus[2])).toBeLessThan(screen.indexOf(skus[0], screen.indexOf('All 3 changes')));
    expect(screen.indexOf('All 3 changes')).toBeLessThan(screen.indexOf('Push 3 SKUs in 1 request'));
    expect(emu.store.inventoryBySku(skus[0])?.quantity).toBe(9000);

    emu.reset();
    const yes = await runSvc(['inventory', 'push', path, '--yes'], { env });
    expect(yes.code, yes.stderr).toBe(0);
    expect(yes.stderr).not.toMatch(/Largest changes|changes, zeroings first|Reading the store/);
    expect(emu.requests({ method: 'GET' })).toHaveLength(0);
  });
});

/** `text` as a regular expression that matches it literally. */
function literally(text: string | null | undefined): string {
  return (text ?? '').replace(/[.*+?^${}()|[\]\\#]/g, '\\$&');
}
