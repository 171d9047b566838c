// A real redis-server for the benches of pacing shared across machines (bench/redis-pacing.mjs):
// on a free loopback port, nothing persisted (--save '' --appendonly no), stopped by the bench.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether redis-server can be run here. */
export function redisInstalled() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server; resolves { url, port, stop, cli(...args) } once it accepts connections. */
export async function startRedis() {
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const ready = await new Promise((resolve) => {
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', () => resolve(false));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    if (!ready) {
      child.kill('SIGKILL');
      if (attempt < 3) continue;
      throw new Error('redis-server did not start');
    }
    return {
      port,
      url: `redis://127.0.0.1:${port}`,
      cli: (...args) =>
        spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim(),
      stop: () =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    };
  }
}
