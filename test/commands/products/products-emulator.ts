/**
 * What the products commands' tests share: one emulator per test file (channels answer after
 * 200 ms), reset before each test, and short ways to run svc and read the store.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import type { ProductRecord } from '../../../src/emulator/model.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'products');
export const fixture = (name: string) => join(FIXTURES, name);

/** The emulator of the test file (or block) that called useProductsEmulator (a live binding). */
export let emu: RunningEmulator;

/** Starts the emulator before the file's (or block's) tests and resets it before each. */
export function useProductsEmulator(): void {
  beforeAll(async () => {
    emu = await emulator({ channelDelayMs: 200 });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());
}

export const svc = (args: string[], key: keyof RunningEmulator['keys'] = 'live') =>
  runSvc(args, { env: envFor(emu, key) });
export const writes = () => emu.requests().filter((r) => r.method !== 'GET');
export const productWith = (test: (p: ProductRecord) => boolean) =>
  [...emu.store.products.values()].find(test) as ProductRecord;
