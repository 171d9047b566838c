/**
 * The single executable (`npm run build:sea`) runs where there is no Node: each command here
 * runs it with a PATH that holds nothing, beside bin/svc run by this Node, and their outputs
 * must match. Built in beforeAll when dist/sea is missing or older than its sources (about
 * 10 s, and a 100 MB file).
 */
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, linkSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { freshConfigDir, SVC_BIN } from '../helpers/svc.js';
import { newest } from '../setup/build.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SEA_DIR = join(ROOT, 'dist', 'sea');
const EXECUTABLE = join(SEA_DIR, `svc-${process.platform}-${process.arch}`);
/** What the executable is built from. */
const INPUTS = [
  'src',
  'scripts/build-sea.mjs',
  'scripts/bundle.mjs',
  'scripts/undici-core.cjs',
  'package.json',
  'package-lock.json',
];
const STOCK = join(ROOT, 'test', 'fixtures', 'inventory', 'stock.csv');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A PATH with nothing on it: no `node` to fall back on. */
const EMPTY_PATH = mkdtempSync(join(ROOT, 'dist', '.empty-path-'));

function run(command: string, args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const options: SpawnOptions = {
      env: { PATH: EMPTY_PATH, HOME: freshConfigDir(), NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    };
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(stdin);
  });
}

/** The single executable at `path` and bin/svc, each with the same environment (and a config dir of its own). */
async function both(args: string[], env: Record<string, string> = {}, path = EXECUTABLE) {
  const single = await run(path, args, { SVC_CONFIG_DIR: freshConfigDir(), ...env });
  const node = await run(process.execPath, [SVC_BIN, ...args], { SVC_CONFIG_DIR: freshConfigDir(), ...env });
  return { single, node };
}

let emu: RunningEmulator;
beforeAll(async () => {
  const builtAt = existsSync(EXECUTABLE) ? statSync(EXECUTABLE).mtimeMs : 0;
  if (INPUTS.some((input) => existsSync(join(ROOT, input)) && newest(join(ROOT, input)) > builtAt)) {
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-sea.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`npm run build:sea failed: ${built.stderr}`);
  }
  emu = await emulator({ orders: 30 });
}, 180_000);
afterAll(async () => {
  await emu?.close();
  rmSync(EMPTY_PATH, { recursive: true, force: true });
});

describe('the single executable, with no node on PATH', () => {
  it('--version prints what bin/svc prints', async () => {
    const { single, node } = await both(['--version']);
    expect(single).toEqual({
      code: 0,
      stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`,
      stderr: '',
    });
    expect(single).toEqual(node);
  });

  it('orders list against the emulator prints what bin/svc prints', async () => {
    const env = { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live };
    const { single, node } = await both(['orders', 'list', '--limit', '5'], env);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stdout.split('\n')).toHaveLength(7);
    expect(single).toEqual(node);
    const json = await both(['orders', 'list', '--limit', '3', '--json'], env);
    expect(JSON.parse(json.single.stdout)).toHaveLength(3);
    expect(json.single).toEqual(json.node);
  });

  it('inventory push --dry-run prints what bin/svc prints', async () => {
    const { single, node } = await both(['inventory', 'push', STOCK, '--dry-run']);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stdout).toContain('CANDLE 1082-CEDAR');
    expect(single).toEqual(node);
    const bad = await both([
      'inventory',
      'push',
      join(ROOT, 'test', 'fixtures', 'orders', 'shipments-bad.csv'),
      '--dry-run',
    ]);
    expect(bad.single.code).toBe(2);
    expect(bad.single).toEqual(bad.node);
  });
});

describe('the keyring library beside the single executable', () => {
  let bus: Server;
  let busAddress: string;
  let alone: string;
  beforeAll(async () => {
    // A session bus that accepts connections and never says a word: only a loaded keyring
    // library gets as far as waiting for it.
    const path = join(freshConfigDir(), 'bus.sock');
    bus = createServer((socket) => socket.on('error', () => undefined).resume());
    await new Promise<void>((resolve) => bus.listen(path, resolve));
    busAddress = `unix:path=${path}`;
    // The executable by itself in a folder of its own (a link: same file, another place).
    const folder = mkdtempSync(join(ROOT, 'dist', '.sea-alone-'));
    alone = join(folder, 'svc');
    try {
      linkSync(EXECUTABLE, alone);
    } catch {
      copyFileSync(EXECUTABLE, alone);
    }
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => bus.close(() => resolve()));
    rmSync(join(alone, '..'), { recursive: true, force: true });
  });

  /** `svc auth login --with-key-stdin` with the executable at `path`. */
  function login(path: string) {
    const dir = freshConfigDir();
    const env = { SVC_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: busAddress };
    return run(path, ['auth', 'login', '--with-key-stdin', '--base-url', emu.url], env, emu.keys.live).then(
      (result) => ({ ...result, config: JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) }),
    );
  }

  it('is loaded from beside it (here it waits for the silent bus), and without it the key goes to the 0600 file', async () => {
    expect(existsSync(join(SEA_DIR, `keyring.${process.platform}-${process.arch}-gnu.node`))).toBe(true);
    const [beside, without] = await Promise.all([login(EXECUTABLE), login(alone)]);
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stderr).toMatch(/no OS keyring took the key \(the OS keyring did not answer within 3 s/);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stderr).toMatch(
      /no OS keyring took the key \(the keyring library \(@napi-rs\/keyring\) is not installed\)/,
    );
    for (const result of [beside, without]) {
      expect(result.stderr).toContain('readable only by you (mode 0600)');
      expect(result.config.profiles.default).toMatchObject({ key_storage: 'file' });
    }
  });
});
