/** `operations wait` gives up at its timeout with exit 8 and says how to keep waiting. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { call } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';

describe('operations wait', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 20, channelDelayMs: 60_000, rateLimit: false });
  });
  afterAll(() => emu.close());

  it('exits 8 when the operation is still pending at the timeout', async () => {
    const listed = [...emu.store.listings.values()].find((listing) => listing.status === 'listed') as {
      id: string;
    };
    const resync = await call(emu, 'PATCH', `/listings/${listed.id}`, { body: {} });
    const result = await runSvc(['operations', 'wait', resync.body.operation_id, '--timeout', '1'], {
      env: envFor(emu),
    });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(`${resync.body.operation_id} is still`);
    expect(result.stderr).toContain('again to keep waiting');
  });
});
