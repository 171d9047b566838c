/**
 * Any readable file is a file: /dev/stdin, a process substitution `<(cmd)` and a named FIFO
 * are read as `-` is (spooled to a private file first, then checked whole), wherever svc reads
 * a file; none of them can be read twice or at an offset, which is what the checks need.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc, SVC_BIN, type SvcResult } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 20, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const dir = tempDir('svc-nonregular-');

/** A stock file setting the first two SKUs' quantities. */
function stockCsv(): string {
  const [a, b] = emu.store.allSkus();
  return `sku,quantity\n${a},41\n${b},42\n`;
}

function shipmentsCsv(): string {
  const [order] = [...emu.store.orders.values()].filter((o) => o.status === 'awaiting_shipment');
  return `order_id,tracking_number,carrier\n${order.id},1ZFIFO,UPS\n`;
}

/** Runs svc under bash, so that `<(…)` means what it means in a shell. */
function inBash(command: string, env: Record<string, string>): Promise<SvcResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const quantityOf = (sku: string) => emu.store.inventoryBySku(sku)?.quantity;

describe('/dev/stdin', () => {
  it('inventory push /dev/stdin pushes the file', async () => {
    const result = await runSvc(['inventory', 'push', '/dev/stdin'], { stdin: stockCsv(), env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/ESPIPE|unexpected error/);
    const [a, b] = emu.store.allSkus();
    expect([quantityOf(a), quantityOf(b)]).toEqual([41, 42]);
  });

  it('inventory diff /dev/stdin compares it', async () => {
    const result = await runSvc(['inventory', 'diff', '/dev/stdin'], { stdin: stockCsv(), env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/ESPIPE|unexpected error/);
    expect(result.stdout).toContain(emu.store.allSkus()[0]);
  });

  it('orders fulfill --file /dev/stdin fulfills the orders', async () => {
    const csv = shipmentsCsv();
    const orderId = csv.split('\n')[1].split(',')[0];
    const result = await runSvc(['orders', 'fulfill', '--file', '/dev/stdin'], {
      stdin: csv,
      env: envFor(emu),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(emu.store.orders.get(orderId)?.status).toBe('shipped');
  });

  it('products upsert --format jsonl /dev/stdin and products create --file /dev/stdin', async () => {
    const create = await runSvc(['products', 'create', '--file', '/dev/stdin', '--json'], {
      stdin: JSON.stringify({ title: 'From a pipe', variants: [{ sku: 'PIPE-1', quantity: 1 }] }),
      env: envFor(emu),
    });
    expect(create.code, create.stderr).toBe(0);
    expect(JSON.parse(create.stdout).title).toBe('From a pipe');
    const upsert = await runSvc(['products', 'upsert', '/dev/stdin', '--format', 'jsonl'], {
      stdin: `${JSON.stringify({ title: 'Piped upsert', variants: [{ sku: 'PIPE-2' }] })}\n`,
      env: envFor(emu),
    });
    expect(upsert.code, upsert.stderr).toBe(0);
    expect(upsert.stderr).not.toMatch(/ESPIPE|unexpected error/);
  });
});

describe('/dev/stdin as a shell gives it (a pipe)', () => {
  it('cat stock.csv | svc inventory push /dev/stdin; cat shipments.csv | svc orders fulfill --file /dev/stdin', async () => {
    const stock = join(dir, 'piped-stock.csv');
    writeFileSync(stock, stockCsv());
    const push = await inBash(
      `cat "${stock}" | "${process.execPath}" "${SVC_BIN}" inventory push /dev/stdin`,
      envFor(emu),
    );
    expect(push.code, push.stderr).toBe(0);
    expect(quantityOf(emu.store.allSkus()[1])).toBe(42);
    const shipments = join(dir, 'piped-shipments.csv');
    const csv = shipmentsCsv();
    writeFileSync(shipments, csv);
    const fulfill = await inBash(
      `cat "${shipments}" | "${process.execPath}" "${SVC_BIN}" orders fulfill --file /dev/stdin`,
      envFor(emu),
    );
    expect(fulfill.code, fulfill.stderr).toBe(0);
    expect(emu.store.orders.get(csv.split('\n')[1].split(',')[0])?.status).toBe('shipped');
  });
});

describe('a process substitution and a FIFO', () => {
  it('inventory push <(cat stock.csv)', async () => {
    const path = join(dir, 'stock.csv');
    writeFileSync(path, stockCsv());
    const result = await inBash(
      `exec "${process.execPath}" "${SVC_BIN}" inventory push <(cat "${path}")`,
      envFor(emu),
    );
    expect(result.code, result.stderr).toBe(0);
    const [a] = emu.store.allSkus();
    expect(quantityOf(a)).toBe(41);
  });

  it('inventory diff on a named FIFO a writer fills', async () => {
    const fifo = join(dir, `stock-${Date.now()}.fifo`);
    const made = await inBash(`mkfifo "${fifo}"`, {});
    expect(made.code).toBe(0);
    const running = runSvc(['inventory', 'diff', fifo], { env: envFor(emu) });
    // Opening a FIFO for writing waits for its reader: svc.
    createWriteStream(fifo).end(stockCsv());
    const result = await running;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(emu.store.allSkus()[1]);
  });
});
