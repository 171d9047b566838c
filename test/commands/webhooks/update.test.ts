/** `svc webhooks update`, in-process against the emulator (its changes: create.test.ts follows an endpoint's life). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('svc webhooks update', () => {
  it.each([
    [['webhooks', 'update', 'we_1'], /nothing to change/],
    [['webhooks', 'update', 'we_1', '--enable', '--disable'], /not both/],
    [['webhooks', 'update', '1', '--enable'], /"1" is not a webhook endpoint id .*svc webhooks list/],
  ])('refuses bad input before sending: %j', async (args, message) => {
    const result = await runSvc(args, { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(emu.requests({ path: /webhook_endpoints/ })).toHaveLength(0);
  });
});
