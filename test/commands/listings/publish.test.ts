/** `listings publish --file` reads its file with the care of the other bulk commands. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { emulator, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';
import { tempDir } from '../../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());

function file(name: string, content: string | Buffer): string {
  const path = join(tempDir('svc-publish-file-'), name);
  writeFileSync(path, content);
  return path;
}

/** A product and an account it is not listed on yet. */
function freePair(): { product_id: string; channel_account_id: string } {
  const accounts = [...emu.store.accounts.values()];
  for (const product of emu.store.products.values()) {
    const listed = new Set(emu.store.listingsOf(product.id).map((listing) => listing.channel_account_id));
    const account = accounts.find((candidate) => !listed.has(candidate.id));
    if (account) return { product_id: product.id, channel_account_id: account.id };
  }
  throw new Error('no free product and account pair in the seed');
}

describe('listings publish --file', () => {
  it('a Latin-1 file is read as Windows-1252 with a notice; --encoding utf-8 refuses it naming the line', async () => {
    const pair = freePair();
    const json = `[\n${JSON.stringify({ ...pair, overrides: { title: 'CAF_' } })}\n]\n`;
    const bytes = Buffer.from(json, 'latin1');
    bytes[bytes.indexOf('CAF_') + 3] = 0xc9;
    const path = file('listings.json', bytes);
    const refused = await runSvc(
      ['listings', 'publish', '--file', path, '--dry-run', '--encoding', 'utf-8'],
      {
        env: envFor(emu),
      },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 2: not UTF-8 text (byte 0xC9)');
    expect(refused.stderr).toContain('--encoding latin1');
    const read = await runSvc(['listings', 'publish', '--file', path, '--dry-run', '--json'], {
      env: envFor(emu),
    });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toMatch(/reads as Windows-1252.*--encoding utf-8/);
    expect(read.stdout).toContain('CAFÉ');
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });

  it('bad items go to --report, every one, and a one-line array names each item', async () => {
    const items = Array.from({ length: 60 }, () => ({ product_id: '', channel_account_id: 'chac_x' }));
    const path = file('listings.json', JSON.stringify(items));
    const report = join(path, '..', 'report.csv');
    const result = await runSvc(['listings', 'publish', '--file', path, '--report', report], {
      env: envFor(emu),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`every bad line is in ${report}`);
    expect(result.stderr).toContain('line 1: item 2: product_id');
    const rows = readFileSync(report, 'utf8').trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(60);
    expect(emu.requests({ method: 'POST' })).toEqual([]);
  });
});
