/**
 * The rest of the machine's faults: standard output to a full device, and a config directory
 * that fills up mid-push; each named in one line, never a stack trace (docs/guide.md, Exit codes).
 */
import { execFile } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { emulatorPerTest } from '../helpers/emulator.js';
import { smallDisk } from '../helpers/small-disk.js';
import { runSvc, SVC_BIN } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const start = emulatorPerTest({ rateLimit: false });
const scratch = () => tempDir('svc-full-');

/** Fills the file system of `dir` to the last byte. */
function fill(dir: string): void {
  const fd = openSync(join(dir, 'the-rest'), 'w');
  try {
    const block = Buffer.alloc(4096);
    for (;;) writeSync(fd, block);
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd);
  }
}

describe('a full device', () => {
  it('standard output to /dev/full: one line naming it, exit 1, no stack trace', async () => {
    const emu = await start();
    const env = {
      PATH: process.env.PATH ?? '',
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
      SVC_CONFIG_DIR: scratch(),
      NO_COLOR: '1',
    };
    for (const args of ['orders list --json', 'version']) {
      const ended = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(
          'sh',
          ['-c', `"${process.execPath}" "${SVC_BIN}" ${args} > /dev/full`],
          { env },
          (error, _out, stderr) =>
            resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
      expect(ended.code, ended.stderr).toBe(1);
      expect(ended.stderr.trim()).toBe('error: cannot write standard output: no space left on the device');
    }
  });

  it('a config directory that fills mid-push: a named error, the summary, a report that agrees with the store', async (context) => {
    const disk = smallDisk(256, 256);
    if (!disk) {
      context.skip('mount is not allowed here');
      return;
    }
    try {
      const emu = await start();
      const skus = emu.store.allSkus().slice(0, 200);
      const path = join(scratch(), 'stock.csv');
      writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i + 300}`).join('\n')}\n`);
      const report = join(scratch(), 'report.csv');
      const batches = { method: 'POST', path: '/inventory/batch' };
      emu.faults.inject({ ...batches, kind: 'delay', delayMs: 150, times: 100_000 });
      const env = { SVC_BASE_URL: emu.url, SVC_API_KEY: emu.keys.live, SVC_CONFIG_DIR: disk.dir };
      const result = await runSvc(
        ['inventory', 'push', path, '--batch-size', '5', '--json', '--report', report],
        {
          env,
          actWhen: { when: () => emu.requests(batches).length >= 8, act: () => fill(disk.dir) },
        },
      );
      expect(result.code, result.stderr).toBe(1);
      const error = JSON.parse(result.stderr.trim().split('\n').at(-1) as string).error;
      expect(error).toMatchObject({ code: 'file_incomplete', exit_code: 1 });
      expect(error.message).toMatch(/the resume journal .* is incomplete: no space left on the device/);
      expect(result.stderr).not.toContain('unexpected error');
      const summary = JSON.parse(result.stdout);
      expect(summary.total).toBe(200);
      // The report says what the store holds: every row reported updated is there, no other.
      const rows = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
      expect(rows).toHaveLength(200);
      const updated = rows.filter((row) => row.status === 'updated');
      expect(updated.length).toBe(summary.updated);
      expect(updated.length).toBeGreaterThan(0);
      for (const row of rows) {
        const held = emu.store.inventoryBySku(row.key)?.quantity === Number(row.line) + 298;
        expect(held, `${row.line} ${row.key} ${row.status}`).toBe(row.status === 'updated');
      }
      expect(rows.filter((row) => row.code === 'write_unconfirmed')).toEqual([]);
      expect(readdirSync(disk.dir)).toContain('journals');
    } finally {
      disk.unmount();
    }
  });
});

describe('standard input without end', () => {
  it('stops at SVC_MAX_INPUT_BYTES with a named error (exit 2), nothing sent', async () => {
    const emu = await start();
    const skus = emu.store.allSkus();
    const stdin = `sku,quantity\n${Array.from({ length: 400 }, (_, i) => `${skus[i % skus.length]}-${i},1`).join('\n')}\n`;
    expect(stdin.length).toBeGreaterThan(4000);
    const env = {
      SVC_BASE_URL: emu.url,
      SVC_API_KEY: emu.keys.live,
      SVC_CONFIG_DIR: scratch(),
      SVC_MAX_INPUT_BYTES: '4000',
    };
    const result = await runSvc(['inventory', 'push', '-'], { env, stdin });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('larger than svc reads (SVC_MAX_INPUT_BYTES=4000)');
    expect(emu.requests({ method: 'POST', path: '/inventory/batch' })).toHaveLength(0);
    const bad = await runSvc(['inventory', 'push', '-'], {
      env: { ...env, SVC_MAX_INPUT_BYTES: '2GB' },
      stdin,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SVC_MAX_INPUT_BYTES must be a whole number of bytes');
  });
});
