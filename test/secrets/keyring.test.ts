/**
 * Where keys are kept. Black-box runs of bin/svc see this machine as it is: no Secret Service
 * (headless Linux), so login falls back to the 0600 file and says so; a keyring that does not
 * answer (a session bus that never speaks) never hangs a command. In-process runs hand a fake
 * keyring to the one module that talks to the keyring, to follow a key into it and out again.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { keyringAccount } from '../../src/config/key-store.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { FakeKeyring } from '../helpers/fake-keyring.js';
import { memoryIO } from '../helpers/memory-io.js';
import { freshConfigDir, runSvc } from '../helpers/svc.js';

// Replaced at build time by esbuild; in-process runs define it themselves.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

const config = (dir: string) => JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: undefined };

/** `svc auth login --with-key-stdin` into `dir`, as a subprocess. */
function login(
  dir: string,
  key: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = NO_BUS,
) {
  return runSvc(['auth', 'login', '--with-key-stdin', '--base-url', emu.url, ...extra], {
    stdin: key,
    env: { SVC_CONFIG_DIR: dir, ...env },
  });
}

describe('no keyring on this machine: the 0600 file, said once', () => {
  it('login falls back to the file and says so; later commands say nothing about it', async () => {
    const dir = freshConfigDir();
    const result = await login(dir, emu.keys.live);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/warning: no OS keyring took the key \(no Secret Service here:/);
    expect(result.stderr).toContain(`${join(dir, 'config.json')}, readable only by you (mode 0600)`);
    expect(config(dir).profiles.default).toMatchObject({ api_key: emu.keys.live, key_storage: 'file' });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    const status = await runSvc(['auth', 'status', '--json'], { env: { SVC_CONFIG_DIR: dir, ...NO_BUS } });
    expect(status.code, status.stderr).toBe(0);
    expect(status.stderr).not.toMatch(/keyring/);
    expect(JSON.parse(status.stdout)).toMatchObject({ key_source: 'profile', key_storage: 'file' });
  });

  it('--insecure-storage chooses the file without trying the keyring or warning', async () => {
    const dir = freshConfigDir();
    const result = await login(dir, emu.keys.live, ['--insecure-storage']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/warning/);
    expect(result.stderr).toMatch(/stored in .*config\.json \(mode 0600\)/);
    expect(config(dir).profiles.default.key_storage).toBe('file');
  });

  it('a profile whose key is in a keyring that is not there exits 4 and says what to do', async () => {
    const dir = freshConfigDir();
    const account = keyringAccount(dir, 'desk');
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        current_profile: 'desk',
        profiles: { desk: { base_url: emu.url, key_storage: 'keyring', keyring_account: account } },
      }),
      { mode: 0o600 },
    );
    const before = emu.requests().length;
    const result = await runSvc(['orders', 'list'], { env: { SVC_CONFIG_DIR: dir, ...NO_BUS } });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('keeps its key in the OS keyring');
    expect(result.stderr).toContain('svc auth login --profile desk');
    expect(emu.requests().length).toBe(before);
    // Logging out still forgets the profile's key record, and says the keyring could not be reached.
    const logout = await runSvc(['auth', 'logout'], { env: { SVC_CONFIG_DIR: dir, ...NO_BUS } });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toMatch(/could not delete its key from the OS keyring/);
    expect(config(dir).profiles.desk).toEqual({ base_url: emu.url });
  });
});

describe('a keyring that does not answer never hangs a command', () => {
  let bus: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (bus ? bus.close(() => resolve()) : resolve())));

  it('login gives up on it after its timeout, keeps the key in the file and says why', async () => {
    // A session bus that accepts connections and never says a word: a locked or hung keyring.
    const path = join(freshConfigDir(), 'bus.sock');
    bus = createServer((socket) => socket.on('error', () => undefined).resume());
    await new Promise<void>((resolve) => bus?.listen(path, resolve));
    const dir = freshConfigDir();
    const started = Date.now();
    const result = await login(dir, emu.keys.live, [], { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/did not answer within 3 s/);
    expect(config(dir).profiles.default.key_storage).toBe('file');
    // The keyring's 3 s and the rest of the login; a hang would run into the 25 s harness limit.
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('with a keyring (a fake one, handed in)', () => {
  /** Runs `svc ARGS` in-process with the fake keyring. */
  async function svc(keyring: FakeKeyring, dir: string, args: string[], stdin?: string) {
    const io = memoryIO();
    if (stdin !== undefined) (io.stdin as PassThrough).end(stdin);
    const code = await main(['node', 'svc', ...args], {
      io,
      env: { SVC_CONFIG_DIR: dir, NO_COLOR: '1' },
      keyring,
    });
    return { code, out: io.out(), err: io.err() };
  }

  it('login puts the key in the keyring and only its place in the file; logout takes it out', async () => {
    const keyring = new FakeKeyring();
    const dir = freshConfigDir();
    const account = keyringAccount(dir, 'shop');
    const loggedIn = await svc(
      keyring,
      dir,
      ['auth', 'login', '--with-key-stdin', '--base-url', emu.url, '--profile', 'shop'],
      emu.keys.live,
    );
    expect(loggedIn.code, loggedIn.err).toBe(0);
    expect(loggedIn.err).toContain('stored in the OS keyring');
    expect(keyring.entries.get(account)).toBe(emu.keys.live);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(emu.keys.live);
    expect(config(dir).profiles.shop).toMatchObject({ key_storage: 'keyring', keyring_account: account });

    const orders = await svc(keyring, dir, ['orders', 'list', '--limit', '1', '--json']);
    expect(orders.code, orders.err).toBe(0);
    expect(JSON.parse(orders.out)).toHaveLength(1);

    // Listing profiles shows the masked key and where it is without reading the keyring.
    const reads = keyring.calls.length;
    const listed = await svc(keyring, dir, ['profiles', 'list', '--json']);
    expect(JSON.parse(listed.out)[0]).toMatchObject({
      key: `svc_live_…${emu.keys.live.slice(-4)}`,
      key_storage: 'keyring',
    });
    expect(keyring.calls.length).toBe(reads);

    const status = await svc(keyring, dir, ['auth', 'status', '--json']);
    expect(JSON.parse(status.out)).toMatchObject({ key_storage: 'keyring', verified: true });

    const logout = await svc(keyring, dir, ['auth', 'logout']);
    expect(logout.code, logout.err).toBe(0);
    expect(keyring.entries.size).toBe(0);
    expect(config(dir).profiles.shop).toEqual({
      base_url: emu.url,
      stores: expect.any(Array),
      accounts: expect.any(Array),
    });
  });

  it('logging in again with --insecure-storage moves the key out of the keyring; remove deletes it', async () => {
    const keyring = new FakeKeyring();
    const dir = freshConfigDir();
    const loginArgs = ['auth', 'login', '--with-key-stdin', '--base-url', emu.url];
    expect((await svc(keyring, dir, loginArgs, emu.keys.live)).code).toBe(0);
    expect(keyring.entries.size).toBe(1);
    expect((await svc(keyring, dir, [...loginArgs, '--insecure-storage'], emu.keys.test)).code).toBe(0);
    expect(keyring.entries.size).toBe(0);
    expect(config(dir).profiles.default).toMatchObject({ api_key: emu.keys.test, key_storage: 'file' });

    expect((await svc(keyring, dir, loginArgs, emu.keys.live)).code).toBe(0);
    expect(config(dir).profiles.default.api_key).toBeUndefined();
    const removed = await svc(keyring, dir, ['profiles', 'remove', 'default']);
    expect(removed.code, removed.err).toBe(0);
    expect(keyring.entries.size).toBe(0);
  });
});
