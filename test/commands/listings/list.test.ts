/** `svc listings list`: filters by status and error code across pages, as the API answers them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { crawl as apiCrawl } from '../../helpers/service-api.js';
import { runSvc } from '../../helpers/svc.js';

describe('listings list', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator({ orders: 300 });
  });
  afterAll(() => emu.close());
  const crawl = (path: string, query?: Record<string, string>) => apiCrawl(emu, path, { query });

  it('listings list filters by status and error code across pages', async () => {
    const expected = (
      await crawl('/listings', { status: 'error', error_code: 'photo_required_for_channel' })
    ).map((l) => l.id);
    const result = await runSvc(
      [
        'listings',
        'list',
        '--status',
        'error',
        '--error-code',
        'photo_required_for_channel',
        '--all',
        '--json',
      ],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((l: { id: string }) => l.id)).toEqual(expected);
  });
});
