/** Local file problems exit 2 naming the path, never "unexpected error". */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const scratch = () => tempDir('svc-local-');

describe('a directory given as a file', () => {
  const dir = () => {
    const path = join(scratch(), 'd.json');
    mkdirSync(path);
    return path;
  };
  for (const args of [
    (d: string) => ['inventory', 'push', d],
    (d: string) => ['orders', 'fulfill', '--file', d],
    (d: string) => ['products', 'upsert', `${d}/`],
    (d: string) => ['listings', 'publish', '--file', d],
  ]) {
    it(`svc ${args('DIR').join(' ')}: exit 2 naming the path, nothing sent`, async () => {
      const path = dir();
      const result = await runSvc([...args(path), '--yes'], { env: envFor(emu) });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(path);
      expect(result.stderr).toMatch(/is a directory/);
      expect(result.stderr).not.toMatch(/unexpected error/);
      expect(emu.requests({ method: 'POST' })).toHaveLength(0);
    });
  }
});

describe('a config dir that cannot be', () => {
  it('SVC_CONFIG_DIR below a regular file: exit 2 naming the path', async () => {
    const file = join(scratch(), 'plain-file');
    writeFileSync(file, 'x');
    const csv = join(scratch(), 'stock.csv');
    writeFileSync(csv, `sku,quantity\n${emu.store.allSkus()[0]},3\n`);
    for (const args of [
      ['orders', 'list'],
      ['inventory', 'push', csv],
    ]) {
      const result = await runSvc(args, { env: { ...envFor(emu), SVC_CONFIG_DIR: join(file, 'svc') } });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(join(file, 'svc'));
      expect(result.stderr).not.toMatch(/unexpected error/);
    }
  });

  it('the journals folder replaced by a file mid-push: exit 2 naming it', async () => {
    const skus = emu.store.allSkus().slice(0, 200);
    const csv = join(scratch(), 'stock.csv');
    writeFileSync(csv, `sku,quantity\n${skus.map((sku) => `${sku},9`).join('\n')}\n`);
    emu.faults.inject({ method: 'POST', path: '/inventory/batch', kind: 'delay', delayMs: 200, times: 1000 });
    const env = envFor(emu);
    const journals = join(env.SVC_CONFIG_DIR, 'journals');
    const result = await runSvc(['inventory', 'push', csv, '--batch-size', '10'], {
      env,
      actWhen: {
        when: () => emu.requests({ method: 'POST', path: '/inventory/batch' }).length >= 2,
        act: () => {
          rmSync(journals, { recursive: true, force: true });
          writeFileSync(journals, 'in the way');
        },
      },
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(journals);
    expect(result.stderr).not.toMatch(/unexpected error/);
  });

  it("a directory in place of the push's lock file: exit 2 naming it, nothing sent", async () => {
    const skus = emu.store.allSkus().slice(0, 200);
    const csv = join(scratch(), 'stock.csv');
    writeFileSync(csv, `sku,quantity\n${skus.map((sku) => `${sku},8`).join('\n')}\n`);
    emu.faults.inject({ method: 'POST', path: '/inventory/batch', kind: 'delay', delayMs: 200, times: 1000 });
    const env = envFor(emu);
    const batches = () => emu.requests({ method: 'POST', path: '/inventory/batch' }).length;
    const first = await runSvc(['inventory', 'push', csv, '--batch-size', '10'], {
      env,
      signalWhen: { signal: 'SIGINT', when: () => batches() >= 2 },
    });
    expect(first.code, first.stderr).toBe(130);
    const journals = join(env.SVC_CONFIG_DIR, 'journals');
    const [journal] = readdirSync(journals).filter((name) => name.endsWith('.json'));
    const lock = join(journals, `${journal}.lock`);
    mkdirSync(lock);
    const sent = batches();
    const result = await runSvc(['inventory', 'push', csv, '--batch-size', '10', '--resume'], { env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(lock);
    expect(result.stderr).not.toMatch(/unexpected error/);
    expect(batches()).toBe(sent);
  });
});
