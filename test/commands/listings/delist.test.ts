/** `listings delist` asks before it delists: without --yes and a terminal it refuses and sends nothing. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

describe('listings delist', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ products: 300, orders: 20, channelDelayMs: 50, rateLimit: false });
  });
  beforeEach(() => emu.reset());
  afterAll(() => emu.close());

  it('delist without --yes and without a terminal refuses (exit 2) and sends nothing; with --yes it delists', async () => {
    const listed = [...emu.store.listings.values()].find((listing) => listing.status === 'listed') as {
      id: string;
    };
    const refused = await runSvc(['listings', 'delist', listed.id], { env: envFor(emu) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delist ${listed.id} without confirmation; pass --yes`);
    expect(emu.requests().length).toBe(0);
    const done = await runSvc(
      ['listings', 'delist', listed.id, '--yes', '--wait', '--timeout', '20', '--json'],
      { env: envFor(emu) },
    );
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout).status).toBe('delisted');
  });
});
