/**
 * `svc emulator start --tls` as a user runs it: HTTPS with a CA file it names; svc reaches it
 * trusting that file through NODE_EXTRA_CA_CERTS or SVC_CA_FILE, `doctor` reports the TLS check
 * against it, and `events listen` follows its event log over HTTPS.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorProcess, startEmulatorProcess } from '../helpers/emulator.js';
import { startReceiver } from '../helpers/receiver.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../helpers/svc.js';

describe('svc emulator start --tls', () => {
  let emu: EmulatorProcess;
  let caFile: string;

  beforeAll(async () => {
    emu = await startEmulatorProcess(['--tls', '--orders', '5', '--products', '3']);
    caFile = emu.caFile as string;
  });
  afterAll(async () => {
    const stopped = await emu?.stop();
    expect(stopped?.code).toBe(0);
    // Its temporary CA file goes with it.
    expect(existsSync(caFile)).toBe(false);
  });

  const env = (extra: Record<string, string>) => ({
    SVC_BASE_URL: emu.url,
    SVC_API_KEY: emu.keys.live,
    HTTPS_PROXY: undefined,
    https_proxy: undefined,
    ...extra,
  });

  it('serves https and names a CA file holding a PEM certificate', () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(readFileSync(caFile, 'utf8')).toContain('-----BEGIN CERTIFICATE-----');
  });

  it('is reached by a process trusting the CA through NODE_EXTRA_CA_CERTS', async () => {
    const result = await runSvc(['health'], { env: env({ NODE_EXTRA_CA_CERTS: caFile }), process: true });
    expect(result.code, result.stderr).toBe(0);
  });

  it('passes the TLS check of doctor with SVC_CA_FILE', async () => {
    const result = await runSvc(['doctor', '--json'], { env: env({ SVC_CA_FILE: caFile }) });
    const report = JSON.parse(result.stdout) as {
      checks: { name: string; status: string; detail: string }[];
    };
    const tls = report.checks.find((check) => check.name === 'tls');
    expect(tls?.status).toBe('ok');
    expect(tls?.detail).toContain(`SVC_CA_FILE=${caFile}`);
    const untrusted = await runSvc(['doctor', '--json'], { env: env({}) });
    const failed = (JSON.parse(untrusted.stdout) as typeof report).checks.find(
      (check) => check.name === 'tls',
    );
    expect(failed?.status).toBe('fail');
  });

  it('follows the event log over https with events listen', async () => {
    const hooks = await startReceiver();
    const child = spawn(
      process.execPath,
      [SVC_BIN, 'events', 'listen', '--forward-to', hooks.url, '--since', '30d', '--interval', '0.2'],
      {
        env: {
          PATH: process.env.PATH,
          NO_COLOR: '1',
          SVC_CONFIG_DIR: freshConfigDir(),
          SVC_WEBHOOK_SECRET: 'whsec_tls_test_secret',
          SVC_BASE_URL: emu.url,
          SVC_API_KEY: emu.keys.live,
          SVC_CA_FILE: caFile,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const received = await hooks.waitFor(1, 20_000).catch((error: Error) => {
        throw new Error(`${error.message}; stderr: ${stderr}`);
      });
      expect(JSON.parse(received[0]?.body ?? '{}').id).toMatch(/^evt_/);
    } finally {
      child.kill('SIGINT');
      await exited;
      await hooks.close();
    }
  });
});
