/**
 * Progress that tells the truth: a paced push's ETA against the time the run really took,
 * on a terminal (the live line shows only there).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emulatorPerTest, envFor } from '../helpers/emulator.js';
import { tempDir } from '../helpers/temp-dir.js';
import { runInTerminal } from '../helpers/terminal.js';

const startEmulator = emulatorPerTest();

/** "1m 5s", "12s" in seconds. */
function seconds(text: string): number {
  const match = /^(?:(\d+)h )?(?:(\d+)m )?(\d+)s$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3]);
}

describe('the ETA of a paced push', () => {
  it('is within 25% of the time really left from 20% of the run onward, and says the rate limit sets the pace', async () => {
    // A slow drain makes the rate limit the bottleneck whatever the machine's load.
    const emu = await startEmulator({ bucket: 5, drainPerSecond: 5 });
    const skus = emu.store.allSkus().slice(0, 200);
    expect(skus).toHaveLength(200);
    const path = join(tempDir('svc-eta-'), 'stock.csv');
    writeFileSync(path, `sku,quantity\n${skus.map((sku, i) => `${sku},${i % 50}`).join('\n')}\n`);
    // 100 requests of 2: (100 - 5) / 5 = 19 s once the burst is spent.
    const result = await runInTerminal(['inventory', 'push', path, '--batch-size', '2', '--yes'], {
      env: envFor(emu),
      stdin: 'null',
      columns: 200,
      timeoutMs: 60_000,
    });
    expect(result.code, result.output.slice(-500)).toBe(0);
    const end = result.timeline.find((chunk) => /Pushed 200 SKUs/.test(chunk.text))?.at;
    expect(end).toBeDefined();
    const frames = result.timeline.flatMap(({ at, text }) =>
      [...text.matchAll(/(\d[\d,]*)\/200 SKUs[^\n\r]*?ETA ((?:\d+h )?(?:\d+m )?\d+s)/g)].map((match) => ({
        at,
        done: Number(match[1].replace(/,/g, '')),
        eta: seconds(match[2]),
      })),
    );
    const judged = frames.filter((frame) => frame.done >= 40 && frame.done < 200);
    expect(judged.length).toBeGreaterThan(5);
    const misses = judged
      .map((frame) => ({ ...frame, left: ((end as number) - frame.at) / 1000 }))
      // 25%, or the line's 1-second resolution where 25% is less than that.
      .filter((frame) => Math.abs(frame.eta - frame.left) > Math.max(0.25 * frame.left, 1))
      .map((frame) => `at ${frame.done}/200: ETA ${frame.eta}s, really ${frame.left.toFixed(1)}s`);
    expect(misses).toEqual([]);
    expect(result.output).toMatch(/paced by the rate limit \(\d+\.\d requests\/s\)/);
  }, 90_000);
});
