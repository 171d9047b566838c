/**
 * Time as people say it: `today` and `yesterday` in every time argument are midnight in the
 * machine's time zone (a child process with TZ set), or UTC midnight under `--time utc`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ orders: 20, rateLimit: false });
});
beforeEach(() => emu.reset());
afterAll(() => emu.close());

const HOUR = 3_600_000;

/** Midnight `daysBack` days ago in a zone `offsetHours` east of UTC with no daylight saving, as UTC ISO. */
function midnight(offsetHours: number, daysBack: number): string {
  const localDate = new Date(Date.now() + offsetHours * HOUR).toISOString().slice(0, 10);
  const localMidnightAsUtc = Date.parse(`${localDate}T00:00:00.000Z`) - daysBack * 24 * HOUR;
  return new Date(localMidnightAsUtc - offsetHours * HOUR).toISOString();
}

/** The value of `param` in the query of the last request to `path`. */
function lastQuery(path: string, param: string): string | null {
  const request = emu.requests({ path }).at(-1);
  return new URLSearchParams(request?.query ?? '').get(param);
}

describe('today and yesterday', () => {
  // No daylight saving in either zone, so the expected midnight is plain arithmetic; Kolkata's
  // half hour shows the offset is the zone's own, not a whole number of hours.
  it.each([
    ['Etc/GMT+5', -5],
    ['Asia/Kolkata', 5.5],
  ])('--created-after today and yesterday are local midnight under TZ=%s', async (zone, offset) => {
    const env = { ...envFor(emu), TZ: zone };
    const today = await runSvc(['orders', 'list', '--created-after', 'today', '--json'], {
      env,
      process: true,
    });
    expect(today.code, today.stderr).toBe(0);
    expect(lastQuery('/orders', 'created_after')).toBe(midnight(offset, 0));
    const yesterday = await runSvc(['operations', 'list', '--created-after', 'yesterday', '--json'], {
      env,
      process: true,
    });
    expect(yesterday.code, yesterday.stderr).toBe(0);
    expect(lastQuery('/operations', 'created_after')).toBe(midnight(offset, 1));
  });

  it('--time utc makes them UTC midnight, whatever the zone; --since and --updated-after take them too', async () => {
    const env = { ...envFor(emu), TZ: 'Asia/Kolkata' };
    const events = await runSvc(['events', 'list', '--since', 'today', '--time', 'utc', '--json'], {
      env,
      process: true,
    });
    expect(events.code, events.stderr).toBe(0);
    expect(lastQuery('/events', 'created_after')).toBe(midnight(0, 0));
    const listings = await runSvc(
      ['--time', 'utc', 'listings', 'list', '--updated-after', 'yesterday', '--json'],
      { env, process: true },
    );
    expect(listings.code, listings.stderr).toBe(0);
    expect(lastQuery('/listings', 'updated_after')).toBe(midnight(0, 1));
  });

  it('events replay, which prints no table, takes --time utc for its --since today', async () => {
    const result = await runSvc(
      ['events', 'replay', '--since', 'today', '--time', 'utc', '--to', 'http://127.0.0.1:9/', '--dry-run'],
      { env: { ...envFor(emu), SVC_WEBHOOK_SECRET: 'whsec_test', TZ: 'Asia/Kolkata' }, process: true },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(lastQuery('/events', 'created_after')).toBe(midnight(0, 0));
  });

  it('a word it does not know names the words it takes (exit 2)', async () => {
    const result = await runSvc(['orders', 'list', '--created-after', 'tomorow'], { env: envFor(emu) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/today, yesterday/);
  });
});
