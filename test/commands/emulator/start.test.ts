/**
 * `svc emulator start`: on loopback it serves the seed's well-known keys; on an address other
 * machines can reach it warns, and makes random keys unless --fixed-keys asks for the seed's.
 * Tests listen on loopback only: which hosts count as reachable, and what follows, is decided
 * apart (test/unit/commands/emulator/exposure.test.ts); here random keys are checked to work.
 * A port in use says so in one line and exits 2, naming --port.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { emulator } from '../../helpers/emulator.js';
import { freshConfigDir, runSvc, SVC_BIN } from '../../helpers/svc.js';

interface Started {
  info: { base_url: string; keys: Record<string, string> };
  stderr: string;
  code: number | null;
}

/** Runs `svc emulator start ARGS --port 0 --json`, reads its first line, then stops it with SIGINT. */
function startAndStop(args: string[]): Promise<Started> {
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
      child.kill('SIGINT');
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

  it('random keys (what an address others can reach gets) differ from the seed and each run, and work', async () => {
    const seeded = await emulator();
    await seeded.close();
    const first = await emulator({ randomKeys: true });
    const second = await emulator({ randomKeys: true });
    try {
      for (const name of Object.keys(seeded.keys) as Array<keyof typeof seeded.keys>) {
        expect(first.keys[name]).toMatch(/^svc_(live|test)_[A-Za-z0-9]{24,}$/);
        expect(first.keys[name]).not.toBe(seeded.keys[name]);
      }
      expect(second.keys.live).not.toBe(first.keys.live);
      const answer = await fetch(`${first.url}/rest/v1/channel_accounts`, {
        headers: { authorization: `Bearer ${first.keys.live}` },
      });
      expect(answer.status).toBe(200);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  let held: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (held ? held.close(() => resolve()) : resolve()));
    held = undefined;
  });

  it('on a port in use says so in one line and exits 2', async () => {
    held = createServer();
    const server = held;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const result = await runSvc(['emulator', 'start', '--port', String(port)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`port ${port} is in use`);
    expect(result.stderr).toContain('--port');
    expect(result.stderr).not.toMatch(/unexpected error|EADDRINUSE|\n\s+at /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
