/**
 * Buyers' data only on request: name, email and address appear in tables, csv and tsv only
 * with --show-buyer, in every command that prints an order (list, get, fulfill); json and
 * ndjson carry the order as the service gives it. A fulfill in a CI log names no buyer.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { OrderRecord } from '../../src/emulator/model.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { memoryIO } from '../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 40, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const awaiting = (): OrderRecord[] =>
  [...emu.store.orders.values()].filter((order) => order.status === 'awaiting_shipment');

/** The personal strings of an order's buyer: name, email, every part of the address but its country. */
function personal(order: OrderRecord): string[] {
  const { name, email, address } = order.buyer ?? {};
  const { country: _country, ...rest } = (address ?? {}) as unknown as Record<string, unknown>;
  const found = [name, email, ...Object.values(rest)].filter(
    (value): value is string => typeof value === 'string' && value.length > 3,
  );
  expect(found.length).toBeGreaterThanOrEqual(3);
  return found;
}

async function svc(args: string[], stdoutIsTTY = false) {
  const io = memoryIO(stdoutIsTTY);
  const code = await main(['node', 'svc', ...args], { io, env: { ...envFor(emu), NO_COLOR: '1' } });
  return { code, out: io.out(), err: io.err(), all: `${io.out()}${io.err()}` };
}

const TEXT_FORMATS = [[], ['-o', 'tsv'], ['-o', 'csv'], ['-o', 'table']];

describe('orders fulfill ID', () => {
  it('piped or on a terminal, in text formats: no buyer name, email or address', async () => {
    for (const format of TEXT_FORMATS) {
      for (const tty of [false, true]) {
        emu.reset();
        const order = awaiting()[0];
        const result = await svc(
          ['orders', 'fulfill', order.id, '--tracking-number', '1Z999', '--carrier', 'UPS', ...format],
          tty,
        );
        expect(result.code, result.err).toBe(0);
        for (const value of personal(order))
          expect(result.all, `${format.join(' ')} tty=${tty}`).not.toContain(value);
      }
    }
  });

  it('with --show-buyer the text formats show them; json carries the order as given', async () => {
    const [shown, asJson] = awaiting();
    const withBuyer = await svc([
      'orders',
      'fulfill',
      shown.id,
      '--tracking-number',
      '1Z1',
      '--carrier',
      'UPS',
      '--show-buyer',
      '-o',
      'tsv',
    ]);
    expect(withBuyer.code, withBuyer.err).toBe(0);
    expect(withBuyer.out).toContain(shown.buyer?.email);
    const json = await svc([
      'orders',
      'fulfill',
      asJson.id,
      '--tracking-number',
      '1Z2',
      '--carrier',
      'UPS',
      '--json',
    ]);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out).buyer.email).toBe(asJson.buyer?.email);
  });
});

describe('orders get ID', () => {
  it('hides the buyer in tables, csv and tsv unless --show-buyer', async () => {
    const order = [...emu.store.orders.values()][0];
    for (const format of TEXT_FORMATS) {
      for (const tty of [false, true]) {
        const hidden = await svc(['orders', 'get', order.id, ...format], tty);
        expect(hidden.code, hidden.err).toBe(0);
        expect(hidden.out).toContain(order.id);
        for (const value of personal(order))
          expect(hidden.all, `${format.join(' ')} tty=${tty}`).not.toContain(value);
        const shown = await svc(['orders', 'get', order.id, '--show-buyer', ...format], tty);
        expect(shown.out, `${format.join(' ')} tty=${tty}`).toContain(order.buyer?.email);
      }
    }
  });

  it('json and ndjson carry the order as the service gives it', async () => {
    const order = [...emu.store.orders.values()][0];
    for (const format of [['--json'], ['-o', 'ndjson']]) {
      const result = await svc(['orders', 'get', order.id, ...format]);
      expect(JSON.parse(result.out).buyer.email).toBe(order.buyer?.email);
    }
  });
});

describe('orders list', () => {
  it('hides the buyer in text formats unless --show-buyer, whatever the format', async () => {
    const orders = [...emu.store.orders.values()];
    for (const format of TEXT_FORMATS) {
      const hidden = await svc(['orders', 'list', '--all', ...format]);
      expect(hidden.code, hidden.err).toBe(0);
      for (const order of orders)
        for (const value of personal(order)) expect(hidden.all).not.toContain(value);
    }
    const shown = await svc(['orders', 'list', '--all', '--show-buyer', '-o', 'csv']);
    expect(shown.out).toContain(orders[0].buyer?.email);
  });
});

describe('--fields naming buyer data', () => {
  it('is refused in text formats without --show-buyer (it would print empty cells), taken in json', async () => {
    const order = [...emu.store.orders.values()][0];
    const refused = await svc(['orders', 'get', order.id, '--fields', 'id,buyer.email', '-o', 'csv']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('add --show-buyer');
    const list = await svc(['orders', 'list', '--fields', 'buyer.address.city']);
    expect(list.code).toBe(2);
    const shown = await svc([
      'orders',
      'get',
      order.id,
      '--fields',
      'id,buyer.email',
      '-o',
      'csv',
      '--show-buyer',
    ]);
    expect(shown.out).toBe(`id,buyer.email\n${order.id},${order.buyer?.email}\n`);
    const json = await svc(['orders', 'get', order.id, '--fields', 'id,buyer.email', '--json']);
    expect(JSON.parse(json.out)).toEqual({ id: order.id, buyer: { email: order.buyer?.email } });
  });
});
