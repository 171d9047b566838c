/**
 * A run leaves nothing behind: what svc spools in the temp folder (standard input, a pipe) is
 * removed when the run ends, in-process too, where no process exit would take it; and the
 * tests' own temporary directories go when their test ends, pass or fail.
 */
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { runSvc } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });

describe('svc in-process', () => {
  it('spools `push -` in the run’s TMPDIR and removes the spool when the run ends', async () => {
    const emu = await start();
    const skus = emu.store.allSkus().slice(0, 20);
    const temp = tempDir('svc-run-temp-');
    let spooledDuringRun: string[] = [];
    const result = await runSvc(['inventory', 'push', '-', '--batch-size', '5'], {
      env: { ...envFor(emu), TMPDIR: temp },
      stdin: `sku,quantity\n${skus.map((sku) => `${sku},7`).join('\n')}\n`,
      actWhen: {
        when: () => emu.requests({ method: 'POST', path: '/inventory/batch' }).length > 0,
        act: () => {
          spooledDuringRun = readdirSync(temp);
        },
      },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(spooledDuringRun).toHaveLength(1);
    expect(readdirSync(temp)).toEqual([]);
  });

  it('removes the spool of a run that fails its check (exit 2)', async () => {
    const emu = await start();
    const temp = tempDir('svc-run-temp-');
    const result = await runSvc(['inventory', 'push', '-'], {
      env: { ...envFor(emu), TMPDIR: temp },
      stdin: 'sku,quantity\nNO-SUCH-SKU,abc\n',
    });
    expect(result.code, result.stderr).toBe(2);
    expect(readdirSync(temp)).toEqual([]);
  });
});

describe('the temp-directory helper', () => {
  let madeByFailingTest = '';

  it.fails('removes a directory when its test fails', () => {
    madeByFailingTest = tempDir();
    expect(existsSync(madeByFailingTest)).toBe(true);
    throw new Error('this test fails on purpose');
  });

  it('the failed test’s directory is gone', () => {
    expect(madeByFailingTest).not.toBe('');
    expect(existsSync(madeByFailingTest)).toBe(false);
  });

  it('removes a directory when its test passes', () => {
    const dir = tempDir();
    onTestFinished(() => {
      // Registered after the helper's removal, so it runs before it (hooks run in reverse).
      expect(existsSync(dir)).toBe(true);
    });
    expect(existsSync(dir)).toBe(true);
  });
});
