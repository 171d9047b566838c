/** On a terminal: Ctrl-C at any prompt, and terminals that report no width. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runInTerminal } from '../helpers/terminal.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const CTRL_C = '\u0003';
const ALARMING = /unexpected error|force closed|ExitPromptError|at .*\.js:\d+/;

describe('Ctrl-C at a prompt', () => {
  it('at a delete confirmation: exit 130, nothing alarming, nothing deleted', async () => {
    const [productId] = emu.store.products.keys();
    const result = await runInTerminal(['products', 'delete', productId], {
      env: envFor(emu),
      keys: [{ when: /\(y\/N\)/, keys: CTRL_C }],
    });
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(emu.store.products.has(productId)).toBe(true);
    expect(emu.requests({ method: 'DELETE' })).toHaveLength(0);
  });

  it('at the login prompt: exit 130, nothing alarming, no profile saved', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-term-') };
    const result = await runInTerminal(['auth', 'login'], {
      env,
      keys: [{ when: /API key/, keys: CTRL_C }],
    });
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(existsSync(join(env.SVC_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it('at a live bulk confirmation: exit 130, nothing sent, no journal left for the next push to warn about', async () => {
    const env = envFor(emu);
    const path = join(tempDir('svc-term-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${emu.store.allSkus()[0]},5\n`);
    const result = await runInTerminal(['inventory', 'push', path], {
      env,
      keys: [{ when: /\(y\/N\)/, keys: CTRL_C }],
    });
    expect(result.code, result.output).toBe(130);
    expect(result.output).not.toMatch(ALARMING);
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' })).toHaveLength(0);
    const journals = join(env.SVC_CONFIG_DIR, 'journals');
    expect(existsSync(journals) ? readdirSync(journals) : []).toEqual([]);
  });

  it('SIGTERM while a prompt waits (a CI timeout on a terminal): the prompt ends, exit 143, saying so, nothing sent', async () => {
    const env = envFor(emu);
    const path = join(tempDir('svc-term-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${emu.store.allSkus()[0]},5\n`);
    const result = await runInTerminal(['inventory', 'push', path], {
      env,
      signal: { when: /\(y\/N\)/, signal: 'SIGTERM' },
    });
    expect(result.code, result.output).toBe(143);
    // Not cut off by the last-resort timer: the prompt itself ended and the run said why.
    expect(result.output).toMatch(/interrupted by SIGTERM/);
    expect(result.output).not.toMatch(ALARMING);
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' })).toHaveLength(0);
  });
});

describe('a terminal that reports no width', () => {
  it('push finishes (exit 0) without flooding it: no live progress line at 0 columns', async () => {
    const path = join(tempDir('svc-term-'), 'one-row.csv');
    const sku = emu.store.allSkus()[0];
    writeFileSync(path, `sku,quantity\n${sku},7\n`);
    const result = await runInTerminal(['inventory', 'push', path, '--yes'], {
      env: envFor(emu),
      stdin: 'null',
      columns: 0,
      timeoutMs: 15_000,
    });
    expect(result.code, result.output.slice(0, 500)).toBe(0);
    expect(result.output.length).toBeLessThan(10_000);
    expect(result.output).toMatch(/Pushed 1 SKU/);
    expect(emu.store.inventoryBySku(sku)?.quantity).toBe(7);
  });

  it('a terminal a few columns wide gets no live line either: each frame would climb a line per character', async () => {
    const path = join(tempDir('svc-term-'), 'stock.csv');
    const skus = emu.store.allSkus().slice(0, 20);
    writeFileSync(path, `sku,quantity\n${skus.map((sku) => `${sku},9`).join('\n')}\n`);
    const result = await runInTerminal(['inventory', 'push', path, '--yes', '--changed-only'], {
      env: envFor(emu),
      stdin: 'null',
      columns: 3,
      timeoutMs: 15_000,
    });
    expect(result.code, result.output.slice(0, 500)).toBe(0);
    expect(result.output).toMatch(/Pushed 20 SKUs/);
    expect(result.output).not.toContain('\u001b[1A');
  });
});
