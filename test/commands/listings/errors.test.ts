/** `svc listings errors`: what is broken on which channel, from one crawl of the listings in error. */
import { describe, expect, it } from 'vitest';
import type { ErrorGroup as Group } from '../../../src/core/listings/error-summary.js';
import { emulatorPerTest, envFor } from '../../helpers/emulator.js';
import { runSvc } from '../../helpers/svc.js';

const start = emulatorPerTest({ rateLimit: false });

interface ListedListing {
  channel_account_id: string;
  channel: string;
  updated_at: string;
  issues: { code: string }[];
}

describe('listings errors', () => {
  it('counts equal a client-side count of `listings list --status error --all --json`, from one crawl', async () => {
    const emu = await start({ products: 300 });
    const env = envFor(emu);
    const listed = await runSvc(['listings', 'list', '--status', 'error', '--all', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const failing = JSON.parse(listed.stdout) as ListedListing[];
    expect(failing.length).toBeGreaterThan(100);
    const expected = new Map<string, number>();
    for (const listing of failing) {
      for (const code of new Set(listing.issues.map((issue) => issue.code))) {
        const key = `${code} ${listing.channel}`;
        expected.set(key, (expected.get(key) ?? 0) + 1);
      }
    }

    const pagesBefore = emu.requests({ method: 'GET', path: '/listings' }).length;
    const result = await runSvc(['listings', 'errors', '--json'], { env });
    expect(result.code, result.stderr).toBe(0);
    const groups = JSON.parse(result.stdout) as Group[];
    expect(new Map(groups.map((g) => [`${g.error_code} ${g.channel}`, g.listings]))).toEqual(expected);
    // Most first; each with the retry that selects exactly its listings.
    expect(groups.map((g) => g.listings)).toEqual([...groups.map((g) => g.listings)].sort((a, b) => b - a));
    const top = groups[0];
    expect(top.retry).toBe(`svc listings retry --error-code ${top.error_code} --channel ${top.channel}`);
    const ofTop = failing.filter(
      (l) => l.channel === top.channel && l.issues.some((issue) => issue.code === top.error_code),
    );
    expect(top.oldest_updated_at).toBe(ofTop.map((l) => l.updated_at).sort()[0]);
    expect(top.newest_updated_at).toBe(
      ofTop
        .map((l) => l.updated_at)
        .sort()
        .at(-1),
    );
    // One crawl of the listings in error, 100 a page; no other read was needed.
    expect(emu.requests({ method: 'GET', path: '/listings' }).length - pagesBefore).toBe(
      Math.ceil(failing.length / 100),
    );
    expect(emu.requests({ method: 'GET', path: '/channel_accounts' })).toEqual([]);
    expect(result.stderr).toContain(`${failing.length} listings in error.`);
  });

  it('--by-account splits each row by channel account; the retry names the account', async () => {
    const emu = await start();
    const env = envFor(emu);
    const byKind = JSON.parse((await runSvc(['listings', 'errors', '--json'], { env })).stdout) as Group[];
    const result = await runSvc(['listings', 'errors', '--by-account', '-o', 'csv'], { env });
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = result.stdout.trim().split('\n');
    expect(header).toBe(
      'error_code,channel,channel_account_id,listings,oldest_updated_at,newest_updated_at,retry',
    );
    const total = (list: number[]) => list.reduce((a, b) => a + b, 0);
    expect(total(rows.map((row) => Number(row.split(',')[3])))).toBe(total(byKind.map((g) => g.listings)));
    for (const row of rows) expect(row).toMatch(/--channel-account chac_\w+$/);
  });

  it('--by-account on a table names each account by its label, not a bare chac_ id', async () => {
    const emu = await start();
    const result = await runSvc(['listings', 'errors', '--by-account', '-o', 'table'], {
      env: { ...envFor(emu), COLUMNS: '200' },
    });
    expect(result.code, result.stderr).toBe(0);
    const labels = [...emu.store.accounts.values()].map((account) => account.label);
    expect(labels.some((label) => result.stdout.includes(label))).toBe(true);
    // The retry command still names the account by id: that is what --channel-account takes.
    expect(result.stdout.split('\n').slice(1).join('\n')).not.toMatch(/chac_\w+ {2}/);
  });
});
