/**
 * `svc emulator start`: on loopback it serves the seed's well-known keys; on an address other
 * machines can reach it warns, and makes random keys unless --fixed-keys asks for the seed's.
 * Tests listen on loopback only: which hosts count as reachable, and what follows, is decided
 * apart (test/unit/commands/emulator/exposure.test.ts); here random keys are checked to work.
 * A port in use says so in one line and exits 2, naming --port.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_FILE, STATE_VERSION } from '../../../src/emulator/index.js';
import { emulator, startEmulatorProcess } from '../../helpers/emulator.js';
import { get } from '../../helpers/service-api.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

interface Started {
  info: { base_url: string; keys: Record<string, string> };
  stderr: string;
  code: number | null;
}

/** Runs `svc emulator start ARGS --port 0 --json`, reads its first line, then stops it with SIGINT. */
function startAndStop(args: string[]): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, 'emulator', 'start', '--port', '0', '--json', ...args], {
      env: { ...process.env, NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let info: Started['info'] | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (info || !stdout.includes('\n')) return;
      info = JSON.parse(stdout.split('\n')[0] ?? '') as Started['info'];
      child.kill('SIGINT');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!info) reject(new Error(`no start line; stderr: ${stderr}`));
      else resolve({ info, stderr, code });
    });
  });
}

describe('svc emulator start', () => {
  it('on loopback: the seed keys, no warning', async () => {
    const seeded = await emulator();
    await seeded.close();
    const started = await startAndStop([]);
    expect(started.code).toBe(0);
    expect(started.info.keys).toEqual(seeded.keys);
    expect(started.stderr).not.toMatch(/warning/);
  });

  it('random keys (what an address others can reach gets) differ from the seed and each run, and work', async () => {
    const seeded = await emulator();
    await seeded.close();
    const first = await emulator({ randomKeys: true });
    const second = await emulator({ randomKeys: true });
    try {
      for (const name of Object.keys(seeded.keys) as Array<keyof typeof seeded.keys>) {
        expect(first.keys[name]).toMatch(/^svc_(live|test)_[A-Za-z0-9]{24,}$/);
        expect(first.keys[name]).not.toBe(seeded.keys[name]);
      }
      expect(second.keys.live).not.toBe(first.keys.live);
      const answer = await get(first, '/channel_accounts');
      expect(answer.status).toBe(200);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  let held: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
    held = undefined;
  });

  it('on a port in use says so in one line and exits 2', async () => {
    held = createServer();
    const server = held;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const result = await runSvc(['emulator', 'start', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`port ${port} is in use`);
    expect(result.stderr).toContain('--port');
    expect(result.stderr).not.toMatch(/unexpected error|EADDRINUSE|\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('svc emulator start --state DIR', () => {
  const stateDir = () => tempDir('svc-emulator-state-');

  it('keeps a product and its pushed quantities across a SIGTERM and a restart, with the same keys', async () => {
    const dir = stateDir();
    const work = tempDir('svc-state-files-');
    const productFile = join(work, 'product.json');
    writeFileSync(
      productFile,
      JSON.stringify({
        title: 'Rehearsal lamp',
        variants: [
          { sku: 'REHEARSE-1', price: '19.00', quantity: 1 },
          { sku: 'REHEARSE-2', price: '21.00', quantity: 1 },
        ],
      }),
    );
    const stock = join(work, 'stock.csv');
    writeFileSync(stock, 'sku,quantity\nREHEARSE-1,42\nREHEARSE-2,7\n');
    const first = await startEmulatorProcess(['--state', dir, '--orders', '40', '--products', '8']);
    const env = { SVC_BASE_URL: first.url, SVC_API_KEY: first.keys.live, SVC_CONFIG_DIR: freshConfigDir() };
    let productId: string;
    try {
      const created = await runSvc(['products', 'create', '--file', productFile, '--json'], { env });
      expect(created.code, created.stderr).toBe(0);
      productId = JSON.parse(created.stdout).id;
      const pushed = await runSvc(['inventory', 'push', stock], { env });
      expect(pushed.code, pushed.stderr).toBe(0);
    } finally {
      const stopped = await first.stop('SIGTERM');
      expect(stopped.stderr).not.toMatch(/error/i);
    }
    expect(readFileSync(join(dir, STATE_FILE), 'utf8')).toContain('REHEARSE-1');

    const second = await startEmulatorProcess(['--state', dir]);
    try {
      expect(second.keys).toEqual(first.keys);
      const again = { ...env, SVC_BASE_URL: second.url };
      const product = await runSvc(['products', 'get', productId, '--json'], { env: again });
      expect(product.code, product.stderr).toBe(0);
      const body = JSON.parse(product.stdout);
      expect(body.title).toBe('Rehearsal lamp');
      expect(body.variants.map((v: { sku: string; quantity: number }) => [v.sku, v.quantity])).toEqual([
        ['REHEARSE-1', 42],
        ['REHEARSE-2', 7],
      ]);
      const orders = await runSvc(['orders', 'list', '--all', '-o', 'ndjson'], { env: again });
      expect(orders.stdout.trim().split('\n')).toHaveLength(40);
    } finally {
      await second.stop('SIGTERM');
    }
  }, 60_000);

  it('refuses a state written by a newer version, and one it cannot read, with exit 2, leaving the file as it was', async () => {
    const newer = stateDir();
    const newerText = `${JSON.stringify({
      format: 'svc-emulator-state',
      version: STATE_VERSION + 1,
      saved_at: '2030-01-01T00:00:00.000Z',
      seed: 1,
      store_id: 'store_future',
      ids: 1,
    })}\n{"end":{"records":0}}\n`;
    writeFileSync(join(newer, STATE_FILE), newerText);
    const refused = await startEmulatorProcess(['--state', newer]).catch((error) => error);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/newer svc/);
    expect(refused.stderr).toContain(join(newer, STATE_FILE));
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(newer, STATE_FILE), 'utf8')).toBe(newerText);

    const garbled = stateDir();
    writeFileSync(join(garbled, STATE_FILE), 'not json at all\n');
    const unreadable = await startEmulatorProcess(['--state', garbled]).catch((error) => error);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/not readable|not an emulator state/);
    expect(readFileSync(join(garbled, STATE_FILE), 'utf8')).toBe('not json at all\n');
  }, 30_000);

  it('a loaded state says that --seed, --orders and --products, which shape only a new store, are ignored', async () => {
    const dir = stateDir();
    const first = await startEmulatorProcess(['--state', dir, '--orders', '12', '--products', '4']);
    await first.stop('SIGTERM');
    const second = await startEmulatorProcess(['--state', dir, '--seed', '7', '--orders', '500']);
    try {
      const env = {
        SVC_BASE_URL: second.url,
        SVC_API_KEY: second.keys.live,
        SVC_CONFIG_DIR: freshConfigDir(),
      };
      const orders = await runSvc(['orders', 'list', '--all', '-o', 'ndjson'], { env });
      expect(orders.stdout.trim().split('\n')).toHaveLength(12);
    } finally {
      const stopped = await second.stop('SIGTERM');
      expect(stopped.stderr).toMatch(/loaded from .*: --seed and --orders .*ignored/);
    }
  }, 60_000);
});

describe('svc emulator start --state DIR, restarted', () => {
  it('says what it loaded on a restart: products, SKUs, listings, orders…', async () => {
    const dir = tempDir('svc-emulator-loaded-');
    const first = await startEmulatorProcess(['--state', dir, '--orders', '40', '--products', '8']);
    const firstRun = await first.stop('SIGTERM');
    expect(firstRun.stderr).not.toMatch(/Loaded/);
    const second = await startEmulatorProcess(['--state', dir]);
    const { stderr } = await second.stop('SIGTERM');
    expect(stderr).toMatch(
      new RegExp(`Loaded the store from ${dir}: 8 products \\(\\d+ SKUs\\), \\d+ listings, 40 orders`),
    );
  }, 60_000);
});
