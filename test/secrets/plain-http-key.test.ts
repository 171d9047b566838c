/** A live key never leaves over plain http to a host other than loopback. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

it('a live key is never sent over plain http to a non-loopback host', async () => {
  const result = await runSvc(['orders', 'list'], {
    env: { SVC_API_KEY: emu.keys.live, SVC_BASE_URL: 'http://store.invalid' },
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/plain http/);
});
