/** `svc auth logout`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator } from '../../helpers/emulator.js';
import { loginProfile } from '../../helpers/profiles.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator();
});
afterAll(() => emu.close());

describe('svc auth logout', () => {
  it('logout forgets the key', async () => {
    const dir = await loginProfile(emu, emu.keys.live);
    expect((await runSvc(['auth', 'logout'], { env: { SVC_CONFIG_DIR: dir } })).code).toBe(0);
    const orders = await runSvc(['orders', 'list'], { env: { SVC_CONFIG_DIR: dir } });
    expect(orders.code).toBe(4);
  });
});
