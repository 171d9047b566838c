/**
 * Bounded reads: a webhook receiver's answer matters only by its status, so `events replay` and
 * `events listen` read a few KiB of it and close, however much the receiver sends; the run
 * ends and its memory stays flat.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { emulator, envFor } from '../helpers/emulator.js';
import { type FloodingReceiver, startFloodingReceiver } from '../helpers/receiver.js';
import { SVC_BIN } from '../helpers/svc.js';

const SECRET = 'whsec_bounded_reads_0123456789abcdef';
/** What a socket's buffers may hold beyond what the client read: the cap is far below it. */
const BUFFERED = 8 * 1024 * 1024;

let emu: RunningEmulator;
let flood: FloodingReceiver;
beforeAll(async () => {
  emu = await emulator({ channelDelayMs: 600_000 });
});
afterEach(() => flood?.close());
afterAll(() => emu.close());

/** Runs svc, sampling its resident memory until it exits (or `stopWhen` says to SIGINT it). */
function runMeasured(args: string[], stopWhen?: (stdout: string) => boolean) {
  const child = spawn(process.execPath, [SVC_BIN, ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...envFor(emu), SVC_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let peakRssKb = 0;
  let stopped = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (!stopped && stopWhen?.(stdout)) {
      stopped = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const sampler = setInterval(() => {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      peakRssKb = Math.max(peakRssKb, Number(rss?.[1] ?? 0));
    } catch {
      // Exited between samples.
    }
  }, 25);
  const killer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  return new Promise<{ code: number | null; stdout: string; stderr: string; peakRssMb: number }>((resolve) =>
    child.on('close', (code) => {
      clearInterval(sampler);
      clearTimeout(killer);
      resolve({ code, stdout, stderr, peakRssMb: peakRssKb / 1024 });
    }),
  );
}

describe('a receiver whose 200 answer never ends', () => {
  it('events replay delivers every event, reading a few KiB of each answer; the run ends', async () => {
    flood = await startFloodingReceiver();
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const result = await runMeasured(['events', 'replay', '--since', since, '--to', flood.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(flood.sent.length).toBeGreaterThan(3);
    expect(result.stderr).toContain(`${flood.sent.length} delivered, 0 failed`);
    for (const bytes of flood.sent) expect(bytes).toBeLessThan(BUFFERED);
    expect(result.peakRssMb).toBeLessThan(150);
  });

  it('events listen forwards, reading a few KiB of each answer', async () => {
    flood = await startFloodingReceiver();
    const since = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const result = await runMeasured(
      ['events', 'listen', '--forward-to', flood.url, '--since', since, '--interval', '0.2'],
      (stdout) => (stdout.match(/delivered/g) ?? []).length >= 3,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(flood.sent.length).toBeGreaterThanOrEqual(3);
    for (const bytes of flood.sent) expect(bytes).toBeLessThan(BUFFERED);
    expect(result.peakRssMb).toBeLessThan(150);
  });
});
