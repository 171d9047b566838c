/** `svc webhooks delete`, in-process against the emulator. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { call } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

describe('svc webhooks delete', () => {
  it('delete without a terminal refuses without --yes (exit 2) and deletes nothing', async () => {
    const id: string = (
      await call(emu, 'POST', '/webhook_endpoints', {
        body: { url: 'https://example.com/h', enabled_events: ['*'] },
      })
    ).body.id;
    const result = await runSvc(['webhooks', 'delete', id], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--yes/);
    expect(emu.store.webhookEndpoints.has(id)).toBe(true);
    expect(emu.requests({ method: 'DELETE' })).toHaveLength(0);
  });

  it.each([
    [['webhooks', 'delete', 'ord_1', '--yes'], /"ord_1" is not a webhook endpoint id .*svc webhooks list/],
  ])('refuses bad input before sending: %j', async (args, message) => {
    const result = await runSvc(args, { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(emu.requests({ path: /webhook_endpoints/ })).toHaveLength(0);
  });
});
