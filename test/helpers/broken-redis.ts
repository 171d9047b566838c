/**
 * A Redis that breaks the protocol, for the tests of a Redis link that must never break a push:
 * a loopback proxy in front of a real redis-server that, once the first `honest` replies went
 * through untouched (the client's handshake), answers each command once before the server does
 * (more replies than commands), or sends garbage instead of the server's answer; or that, from
 * its connection number `honest + 1` on, answers TIME with another command's reply.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach } from 'vitest';

/**
 * How the proxy breaks answers: a reply too many for each command, garbage, or TIME answered with
 * another command's reply (a lock take's `1, '', '0'`, as a reply out of step gives it).
 */
export type RedisFault = 'extra-replies' | 'garbage' | 'time-out-of-step';

/** A lock take's answer, RESP-encoded: a list of 1, '' and '0'. */
const TAKE_SHAPED_REPLY = '*3\r\n:1\r\n$0\r\n\r\n$1\r\n0\r\n';

/** A broken Redis in front of a real one. */
export interface BrokenRedis {
  url: string;
  /** Answers the proxy broke so far. */
  broken(): number;
  /** Drops every connection open now (the client reconnects). */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Starts a proxy to the Redis on `targetPort` that breaks answers as `fault` says. */
async function brokenRedis(targetPort: number, fault: RedisFault, honest = 4): Promise<BrokenRedis> {
  let broken = 0;
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    connections += 1;
    const wrongTime = fault === 'time-out-of-step' && connections > honest;
    let asked = 0;
    let timeAsked = false;
    client.on('data', (chunk) => {
      asked += 1;
      if (wrongTime && /^\*1\r\n\$4\r\ntime\r\n$/i.test(chunk.toString('latin1'))) timeAsked = true;
      // An answer before the server's own: every later reply lands on the command after its own.
      if (asked > honest && fault === 'extra-replies') {
        broken += 1;
        client.write('+OK\r\n');
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (timeAsked) {
        timeAsked = false;
        broken += 1;
        client.write(TAKE_SHAPED_REPLY);
        return;
      }
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
      sockets.delete(client);
      sockets.delete(upstream);
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
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
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
