/** `svc profiles use` (and list and remove around it). */
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

describe('svc profiles use', () => {
  it('profiles list, use and remove', async () => {
    const dir = await loginProfile(emu, emu.keys.live, 'one');
    await loginProfile(emu, emu.keys.test, 'two', dir);
    const env = { SVC_CONFIG_DIR: dir };
    const listed = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(listed.map((p: { name: string }) => p.name).sort()).toEqual(['one', 'two']);
    // The first login made "one" current; logging in to "two" kept it (and said so).
    expect(listed.find((p: { current: boolean }) => p.current).name).toBe('one');
    expect((await runSvc(['profiles', 'use', 'one'], { env })).code).toBe(0);
    expect(JSON.parse((await runSvc(['auth', 'status', '--json'], { env })).stdout).profile).toBe('one');
    expect((await runSvc(['profiles', 'use', 'three'], { env })).code).toBe(2);
    expect((await runSvc(['profiles', 'remove', 'one'], { env })).code).toBe(0);
    const after = JSON.parse((await runSvc(['profiles', 'list', '--json'], { env })).stdout);
    expect(after.map((p: { name: string }) => p.name)).toEqual(['two']);
  });
});
