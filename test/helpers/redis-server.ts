/**
 * A real Redis for the tests of pacing shared across machines: `redis-server` on a free
 * loopback port, nothing persisted (`--save '' --appendonly no`), stopped after the test. A
 * workstation without redis-server skips those tests; CI installs it (.ci/run), so there a
 * missing redis-server fails the run instead of hiding a skip.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { afterEach } from 'vitest';
import { closedPort } from './loopback-server.js';

/** Whether redis-server can be run here; throws on CI, where it must be. */
export function redisInstalled(): boolean {
  const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!found && (process.env.CI === 'true' || process.env.CI === '1')) {
    throw new Error('redis-server is not installed; CI must run the Redis tests (.ci/run installs it)');
  }
  return found;
}

/** A redis-server this test started. */
export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:PORT (with `user:password@` when started with a password). */
  url: string;
  /** Stops it (SIGKILL: gone at once, as a lost server is); resolves once it exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: nothing was persisted), after stop(). */
  restart(): Promise<void>;
  /** Runs redis-cli against it and returns its output (for looking at what svc stored). */
  cli(...args: string[]): string;
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${output}`));
    });
  });
}

/** redis-server on `port`, once it accepts connections. */
async function serve(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (password) args.push('--requirepass', password);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    await started(child);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

/** Starts redis-server on a free loopback port; `password` makes it require one (as user `default`). */
async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  for (let attempt = 0; ; attempt += 1) {
    const port = await closedPort();
    let child: ChildProcess;
    try {
      child = await serve(port, options.password);
    } catch (error) {
      // Another process may have taken the port between our look and redis-server's bind.
      if (attempt < 3) continue;
      throw error;
    }
    const auth = options.password ? `default:${encodeURIComponent(options.password)}@` : '';
    return {
      port,
      url: `redis://${auth}127.0.0.1:${port}`,
      stop: () => stopped(child),
      async restart() {
        await stopped(child);
        child = await serve(port, options.password);
      },
      cli(...cliArgs) {
        const password = options.password ? ['-a', options.password, '--no-auth-warning'] : [];
        const result = spawnSync('redis-cli', ['-p', String(port), ...password, ...cliArgs], {
          encoding: 'utf8',
        });
        return result.stdout;
      },
    };
  }
}

/** A starter of Redis servers that each test owns: whatever a test started is stopped after it. */
export function redisPerTest(): (options?: { password?: string }) => Promise<RedisServer> {
  const running: RedisServer[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((server) => server.stop()));
  });
  return async (options) => {
    const server = await startRedis(options);
    running.push(server);
    return server;
  };
}
