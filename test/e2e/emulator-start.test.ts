/**
 * `svc emulator start`: on loopback it serves the seed's well-known keys; on an address other
 * machines can reach it warns, and makes random keys unless --fixed-keys asks for the seed's.
 * Traffic stays on loopback: the emulator is reached through 127.0.0.1 whatever it listens on.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { emulator } from '../helpers/emulator.js';
import { freshConfigDir, SVC_BIN } from '../helpers/svc.js';

interface Started {
  info: { base_url: string; keys: Record<string, string> };
  stderr: string;
  code: number | null;
}

/** Runs `svc emulator start ARGS --port 0 --json`, reads its first line, then stops it with SIGINT. */
function startAndStop(args: string[], probe?: (info: Started['info']) => Promise<void>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, 'emulator', 'start', '--port', '0', '--json', ...args], {
      env: { ...process.env, NO_COLOR: '1', SVC_CONFIG_DIR: freshConfigDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let info: Started['info'] | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (info || !stdout.includes('\n')) return;
      info = JSON.parse(stdout.split('\n')[0] ?? '') as Started['info'];
      const seen = info;
      (probe ? probe(seen) : Promise.resolve()).finally(() => child.kill('SIGINT'));
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!info) reject(new Error(`no start line; stderr: ${stderr}`));
      else resolve({ info, stderr, code });
    });
  });
}

describe('svc emulator start', () => {
  it('on loopback: the seed keys, no warning', async () => {
    const seeded = await emulator();
    await seeded.close();
    const started = await startAndStop([]);
    expect(started.code).toBe(0);
    expect(started.info.keys).toEqual(seeded.keys);
    expect(started.stderr).not.toMatch(/warning/);
  });

  it('on an address others can reach: a warning, and random keys that work', async () => {
    const seeded = await emulator();
    await seeded.close();
    let answered = 0;
    const started = await startAndStop(['--host', '0.0.0.0'], async (info) => {
      const port = new URL(info.base_url).port;
      const answer = await fetch(`http://127.0.0.1:${port}/rest/v1/channel_accounts`, {
        headers: { authorization: `Bearer ${info.keys.live}` },
      });
      answered = answer.status;
    });
    expect(started.code).toBe(0);
    expect(answered).toBe(200);
    expect(started.stderr).toMatch(/warning: .*0\.0\.0\.0.*other machines/);
    expect(started.stderr).toMatch(/keys are random/);
    for (const name of Object.keys(seeded.keys)) {
      expect(started.info.keys[name]).toMatch(/^svc_(live|test)_[A-Za-z0-9]{24,}$/);
      expect(started.info.keys[name]).not.toBe(seeded.keys[name as keyof typeof seeded.keys]);
    }
    const again = await startAndStop(['--host', '0.0.0.0']);
    expect(again.info.keys.live).not.toBe(started.info.keys.live);
  });

  it('--fixed-keys keeps the seed keys on such an address, still with the warning', async () => {
    const seeded = await emulator();
    await seeded.close();
    const started = await startAndStop(['--host', '0.0.0.0', '--fixed-keys']);
    expect(started.info.keys).toEqual(seeded.keys);
    expect(started.stderr).toMatch(/warning: .*0\.0\.0\.0/);
    expect(started.stderr).toMatch(/well-known keys/);
  });
});
