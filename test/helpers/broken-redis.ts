/**
 * A Redis that breaks the protocol, for the tests of a Redis link that must never break a push:
 * a loopback proxy in front of a real redis-server that, once the first `honest` replies went
 * through untouched (the client's handshake), answers each command once before the server does
 * (more replies than commands), or sends garbage instead of the server's answer.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach } from 'vitest';

/** How the proxy breaks the answers after the honest ones. */
export type RedisFault = 'extra-replies' | 'garbage';

/** A broken Redis in front of a real one. */
export interface BrokenRedis {
  url: string;
  /** Answers the proxy broke so far. */
  broken(): number;
  close(): Promise<void>;
}

/** Starts a proxy to the Redis on `targetPort` that breaks answers as `fault` says. */
async function brokenRedis(targetPort: number, fault: RedisFault, honest = 4): Promise<BrokenRedis> {
  let broken = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let asked = 0;
    client.on('data', (chunk) => {
      asked += 1;
      // An answer before the server's own: every later reply lands on the command after its own.
      if (asked > honest && fault === 'extra-replies') {
        broken += 1;
        client.write('+OK\r\n');
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (asked <= honest || fault !== 'garbage') {
        client.write(chunk);
        return;
      }
      broken += 1;
      client.write('?not resp at all\r\n');
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    broken: () => broken,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A starter of broken Redis proxies that each test owns: closed after the test. */
export function brokenRedisPerTest(): (
  targetPort: number,
  fault: RedisFault,
  honest?: number,
) => Promise<BrokenRedis> {
  const running: BrokenRedis[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((proxy) => proxy.close()));
  });
  return async (targetPort, fault, honest) => {
    const proxy = await brokenRedis(targetPort, fault, honest);
    running.push(proxy);
    return proxy;
  };
}
