/**
 * `listings update --error-code C --attribute k=v`: every listing failing with C updated in one
 * bulk run (dry run, cost, confirmation, report, a run again that sends only what is left),
 * then with --wait what the channels said.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

const MISSING = 'missing_required_attribute';
const start = emulatorPerTest({ rateLimit: false, channelDelayMs: 20 });

function failingOnEbay(emu: RunningEmulator) {
  return [...emu.store.listings.values()].filter(
    (listing) =>
      listing.status === 'error' &&
      listing.channel === 'ebay' &&
      listing.issues.some((issue) => issue.code === MISSING),
  );
}

/** Whether condition is all the listing misses. */
function missesOnlyCondition(listing: ReturnType<typeof failingOnEbay>[number]): boolean {
  const names = listing.issues.flatMap((issue) => issue.attribute_names);
  return names.length === 1 && names[0] === 'condition';
}

function patches(emu: RunningEmulator): string[] {
  return emu
    .requests({ route: 'PATCH /listings/{id}' })
    .map((record) => decodeURIComponent(record.path.replace('/listings/', '')));
}

const scratch = () => tempDir('svc-update-');

/** Every listing failing with MISSING on ebay, given condition=New. */
const UPDATE_EBAY_CONDITION = [
  'listings',
  'update',
  '--error-code',
  MISSING,
  '--channel',
  'ebay',
  '--attribute',
  'condition=New',
];

describe('listings update --error-code', () => {
  it('updates every listing failing with the code in one run, and --wait says what the channels said', async () => {
    const emu = await start();
    const failing = failingOnEbay(emu);
    expect(failing.length).toBeGreaterThan(2);
    const healed = failing.filter(missesOnlyCondition);
    expect(healed.length).toBeGreaterThan(0);
    const quotaBefore = emu.writeQuotaUsed();
    const report = join(scratch(), 'update.csv');
    const result = await runSvc(
      [...UPDATE_EBAY_CONDITION, '--wait', '--timeout', '30', '--json', '--report', report],
      { env: envFor(emu) },
    );
    const stillFailing = failing.length - healed.length;
    expect(result.code, result.stderr).toBe(stillFailing > 0 ? 3 : 0);
    // One PATCH per listing, each carrying the attribute; one unit of quota each.
    expect(new Set(patches(emu))).toEqual(new Set(failing.map((listing) => listing.id)));
    expect(patches(emu)).toHaveLength(failing.length);
    expect(emu.writeQuotaUsed() - quotaBefore).toBe(failing.length);
    for (const listing of failing)
      expect(emu.store.listings.get(listing.id)?.attributes.condition, listing.id).toBe('New');
    for (const listing of healed) expect(emu.store.listings.get(listing.id)?.status).toBe('listed');
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      total: failing.length,
      listed: healed.length,
      still_failing: stillFailing,
      requests: failing.length,
    });
    const rows = readFileSync(report, 'utf8').trim().split(/\r?\n/).slice(1);
    expect(rows).toHaveLength(failing.length);
    expect(rows.filter((row) => row.split(',')[2] === 'listed')).toHaveLength(healed.length);
    expect(result.stderr).toContain(`Found ${failing.length} listings in error with ${MISSING} on ebay`);
    expect(result.stderr).toMatch(/After the update: \d+ listed/);

    // Run again: what is left already carries the value, so nothing is sent twice.
    const again = await runSvc([...UPDATE_EBAY_CONDITION, '--json'], { env: envFor(emu) });
    expect(again.code, again.stderr).toBe(0);
    expect(patches(emu)).toHaveLength(failing.length);
    expect(JSON.parse(again.stdout)).toMatchObject({
      total: stillFailing,
      unchanged: stillFailing,
      requests: 0,
    });
  });

  it('--dry-run shows what would be sent and what it costs, and sends nothing', async () => {
    const emu = await start();
    const failing = failingOnEbay(emu);
    const result = await runSvc([...UPDATE_EBAY_CONDITION, '--dry-run'], { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `${failing.length} listings in error with ${MISSING} on ebay would be updated in ${failing.length} requests (${failing.length} units of daily write quota; svc has counted 0 on this machine today`,
    );
    expect(result.stderr).toContain('Nothing was sent');
    expect(result.stderr).toContain('{"attributes":{"condition":"New"}}');
    for (const listing of failing) expect(result.stdout).toContain(listing.id);
    expect(emu.requests({ method: 'PATCH' })).toEqual([]);
  });

  it('a value the category does not accept is refused before anything is sent (exit 2)', async () => {
    const emu = await start();
    const result = await runSvc(
      ['listings', 'update', '--error-code', MISSING, '--channel', 'ebay', '--attribute', 'condition=Mint'],
      { env: envFor(emu) },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/condition takes one of New, Used, Refurbished, got "Mint"/);
    expect(result.stderr).toContain('nothing was sent');
    expect(emu.requests({ method: 'PATCH' })).toEqual([]);
  });

  it('an id and --error-code together, or neither, are refused (exit 2)', async () => {
    const emu = await start();
    const [listing] = failingOnEbay(emu);
    const both = await runSvc(
      ['listings', 'update', listing.id, '--error-code', MISSING, '--attribute', 'condition=New'],
      { env: envFor(emu) },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either a listing id or --error-code/);
    const neither = await runSvc(['listings', 'update', '--attribute', 'condition=New'], {
      env: envFor(emu),
    });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/either a listing id or --error-code/);
    expect(emu.requests({ method: 'PATCH' })).toEqual([]);
  });

  it('listings update ID keeps working as before; its --dry-run sends nothing', async () => {
    const emu = await start();
    const [listing] = failingOnEbay(emu).filter(missesOnlyCondition);
    const args = ['listings', 'update', listing.id, '--attribute', 'condition=New'];
    const dry = await runSvc([...args, '--dry-run', '-o', 'table'], { env: envFor(emu) });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`PATCH /listings/${listing.id} {"attributes":{"condition":"New"}}`);
    expect(emu.requests({ method: 'PATCH' })).toEqual([]);
    const result = await runSvc(args, { env: envFor(emu) });
    expect(result.code, result.stderr).toBe(0);
    expect(patches(emu)).toEqual([listing.id]);
    expect(emu.store.listings.get(listing.id)?.attributes.condition).toBe('New');
  });
});
