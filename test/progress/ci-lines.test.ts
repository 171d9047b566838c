/**
 * Long work is visible in CI: without a terminal, a bulk run writes a progress line (done,
 * total, rate, ETA) to stderr every 30 s, so a log never goes silent for minutes between the
 * plan and the summary; -q silences it. The progress clock is the test's: its 30 s pass when
 * the emulator has answered another batch, not on the wall clock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { memoryIO } from '../helpers/memory-io.js';
import { SVC_BIN } from '../helpers/svc.js';
import { tempDir } from '../helpers/temp-dir.js';

const startEmulator = emulatorPerTest();

/** A clock whose time moves only when the test says, firing what is due on the way. */
function fakeClock() {
  let at = Date.parse('2026-11-10T09:00:00.000Z');
  const timers = new Set<{ ms: number; due: number; tick: () => void }>();
  const intervals: number[] = [];
  return {
    intervals,
    clock: {
      now: () => at,
      every(ms: number, tick: () => void) {
        const timer = { ms, due: at + ms, tick };
        intervals.push(ms);
        timers.add(timer);
        return () => timers.delete(timer);
      },
    },
    advance(ms: number) {
      const end = at + ms;
      for (;;) {
        const next = [...timers].sort((a, b) => a.due - b.due)[0];
        if (!next || next.due > end) break;
        at = next.due;
        next.due += next.ms;
        next.tick();
      }
      at = end;
    },
  };
}

/** A stock file of the first `count` SKUs of the emulator's catalog. */
function stockFile(emu: RunningEmulator, count: number): string {
  const skus = emu.store.allSkus().slice(0, count);
  expect(skus).toHaveLength(count);
  const path = join(tempDir('svc-ci-progress-'), 'stock.csv');
  writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i % 7}`).join('\n')}\n`);
  return path;
}

/** svc in-process, stderr not a terminal, 30 s of the fake clock per request to `path` answered. */
async function runWithFakeTime(
  emu: RunningEmulator,
  args: string[],
  env: Record<string, string> = {},
  path = '/inventory/batch',
) {
  const fake = fakeClock();
  const io = memoryIO();
  const stdin = new PassThrough();
  stdin.end('');
  const batches = () => emu.requests().filter((request) => request.path.endsWith(path)).length;
  let seen = 0;
  const poll = setInterval(() => {
    const now = batches();
    for (; seen < now; seen++) fake.advance(30_000);
  }, 5);
  try {
    const code = await main([process.execPath, SVC_BIN, ...args], {
      io: { ...io, stdin },
      env: { ...envFor(emu), NO_COLOR: '1', ...env },
      progressClock: fake.clock,
    } as Parameters<typeof main>[1]);
    return { code, stdout: io.out(), stderr: io.err(), intervals: fake.intervals };
  } finally {
    clearInterval(poll);
  }
}

describe('progress without a terminal', () => {
  it.each([
    ['piped', {}],
    ['in CI', { CI: 'true' }],
  ])(
    'writes a line every 30 s between the plan and the summary (%s): done, total, rate, ETA',
    async (_how, env) => {
      // A drain that makes the run take many answers, each 30 s of the fake clock.
      const emu = await startEmulator({ bucket: 3, drainPerSecond: 40 });
      const path = stockFile(emu, 24);
      const result = await runWithFakeTime(
        emu,
        ['inventory', 'push', path, '--batch-size', '2', '--yes'],
        env,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.intervals).toContain(30_000);
      const lines = result.stderr.split('\n');
      const summary = lines.findIndex((line) => /Pushed 24 SKUs/.test(line));
      expect(summary).toBeGreaterThan(0);
      const progress = lines
        .map((line, index) => ({ line, index }))
        .filter(({ line }) => /^\d+\/24 SKUs · /.test(line));
      // 12 batches, 30 s each: a line at nearly every one of them.
      expect(progress.length, result.stderr).toBeGreaterThanOrEqual(6);
      for (const { line, index } of progress) {
        expect(index).toBeLessThan(summary);
        expect(line).toMatch(/^\d+\/24 SKUs · \d+(\.\d+)?\/s/);
        // No spinner frames or cursor moves in a log.
        expect(line.includes('\r') || line.includes('\u001b')).toBe(false);
      }
      // The counts grow, and the ETA is there while work is left.
      const done = progress.map(({ line }) => Number(/^(\d+)/.exec(line)?.[1]));
      expect(done).toEqual([...done].sort((a, b) => a - b));
      expect(progress.some(({ line }) => /ETA \d/.test(line))).toBe(true);
    },
  );

  it('-q silences the lines', async () => {
    const emu = await startEmulator({ bucket: 3, drainPerSecond: 40 });
    const path = stockFile(emu, 24);
    const result = await runWithFakeTime(emu, [
      'inventory',
      'push',
      path,
      '--batch-size',
      '2',
      '--yes',
      '-q',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/\d+\/24 SKUs · /);
  });

  it('counts a crawl to the end of a list going to a file: orders list --all', async () => {
    const emu = await startEmulator({ orders: 450 });
    const result = await runWithFakeTime(emu, ['orders', 'list', '--all', '-o', 'csv'], {}, '/orders');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(451);
    const progress = result.stderr.split('\n').filter((line) => /^[\d,]+ orders · /.test(line));
    expect(progress.length, result.stderr).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatch(/^[\d,]+ orders · \d+(\.\d+)?\/s$/);
  });

  it('counts an inventory export going to a file', async () => {
    const emu = await startEmulator({ products: 400 });
    const result = await runWithFakeTime(emu, ['inventory', 'export'], { CI: 'true' }, '/products');
    expect(result.code, result.stderr).toBe(0);
    const progress = result.stderr.split('\n').filter((line) => /^[\d,]+ SKUs · /.test(line));
    expect(progress.length, result.stderr).toBeGreaterThanOrEqual(3);
  });
});
