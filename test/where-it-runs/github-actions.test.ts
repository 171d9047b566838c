/**
 * On GitHub Actions a bulk run points at the failing lines: refused or failed input lines become
 * `::error file=…,line=…::` annotations (at most 10, then a count of the rest), and the run's
 * summary is appended to $GITHUB_STEP_SUMMARY. Elsewhere neither appears.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await emulator({ rateLimit: false });
});
afterAll(() => emu.close());
const scratch = () => tempDir('svc-gha-');

/** A stock file of `good` seeded SKUs, then `bad` rows with a negative quantity. */
function stock(good: number, bad: number): string {
  const skus = emu.store.allSkus();
  const rows = [
    ...skus.slice(0, good).map((sku) => `${sku},4`),
    ...skus.slice(good, good + bad).map((sku) => `${sku},-3`),
  ];
  const path = join(scratch(), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${rows.join('\n')}\n`);
  return path;
}

function onActions(): { env: Record<string, string>; summary: string } {
  const summary = join(scratch(), 'step-summary.md');
  return { env: { ...envFor(emu), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, summary };
}

const annotations = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith('::error '));

describe('on GitHub Actions', () => {
  it('a push with 3 bad lines annotates each line and writes the summary table', async () => {
    const path = stock(2, 3);
    const { env, summary } = onActions();
    const result = await runSvc(['inventory', 'push', path], { env });
    expect(result.code).toBe(2);
    const errors = annotations(result.stderr);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(
      new RegExp(
        `^::error file=${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},line=4,title=svc inventory push::.*quantity "-3"`,
      ),
    );
    expect(errors.map((line) => /line=(\d+)/.exec(line)?.[1])).toEqual(['4', '5', '6']);
    const table = readFileSync(summary, 'utf8');
    expect(table).toContain('### svc inventory push');
    expect(table).toMatch(/\| bad lines \| 3 \|/);
    expect(emu.requests({ method: 'PATCH' })).toHaveLength(0);
  });

  it('a push with 25 bad lines annotates 10 and counts the rest, naming the report', async () => {
    const path = stock(0, 25);
    const { env } = onActions();
    const report = join(scratch(), 'report.csv');
    const result = await runSvc(['inventory', 'push', path, '--report', report], { env });
    expect(result.code).toBe(2);
    expect(annotations(result.stderr)).toHaveLength(10);
    expect(result.stderr).toMatch(
      new RegExp(
        `^::notice title=svc inventory push::15 more \\(25 in all\\); every one is in ${report}`,
        'm',
      ),
    );
  });

  it('a run whose items fail annotates them and sums up the run', async () => {
    const path = join(scratch(), 'stock.csv');
    const [sku] = emu.store.allSkus();
    writeFileSync(path, `sku,quantity\n${sku},5\nNO-SUCH-SKU,1\n`);
    const { env, summary } = onActions();
    const result = await runSvc(['inventory', 'push', path], { env });
    expect(result.code, result.stderr).toBe(3);
    expect(annotations(result.stderr)).toEqual([
      expect.stringMatching(/^::error file=.*stock\.csv,line=3,title=svc inventory push::NO-SUCH-SKU/),
    ]);
    const table = readFileSync(summary, 'utf8');
    expect(table).toMatch(/\| SKUs \| 2 \|/);
    expect(table).toMatch(/\| failed \| 1 \|/);
    expect(table).toMatch(/\| write quota spent \| 1 units/);
  });

  it('a run the write quota stopped names the command that resumes it in the summary', async () => {
    const stopped = await emulator({ rateLimit: false, writeQuota: 1 });
    try {
      const skus = stopped.store.allSkus().slice(0, 4);
      const path = join(scratch(), 'stock.csv');
      writeFileSync(path, `sku,quantity\n${skus.map((sku) => `${sku},9`).join('\n')}\n`);
      const summary = join(scratch(), 'step-summary.md');
      const env = { ...envFor(stopped), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
      const result = await runSvc(['inventory', 'push', path, '--batch-size', '2'], { env });
      expect(result.code, result.stderr).toBe(5);
      const table = readFileSync(summary, 'utf8');
      expect(table).toMatch(/\| not sent \| 2 \|/);
      expect(table).toMatch(/\| stopped \| .*--resume/);
    } finally {
      await stopped.close();
    }
  });

  it('without GITHUB_ACTIONS, neither annotations nor a summary', async () => {
    const path = stock(2, 3);
    const { env, summary } = onActions();
    const result = await runSvc(['inventory', 'push', path], { env: { ...env, GITHUB_ACTIONS: undefined } });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('::error');
    expect(existsSync(summary)).toBe(false);
  });
});
