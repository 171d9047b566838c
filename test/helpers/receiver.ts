/** A webhook receiver for tests: a real node:http server on port 0 that records every delivery. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** One POST the receiver got. */
export interface Received {
  body: string;
  signature: string | undefined;
  contentType: string | undefined;
  atMs: number;
}

/** What to answer: a status, or 'hang' to never answer. */
export type Answer = number | 'hang';

/** A running receiver. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Resolves once `count` deliveries arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts a receiver; `answer(n)` decides the status of the n-th delivery (0-based), default 200. */
export async function startReceiver(
  answer: (index: number, received: Received) => Answer = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const { url, close } = await loopbackServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery: Received = {
        body: Buffer.concat(chunks).toString('utf8'),
        signature: request.headers['x-service-signature'] as string | undefined,
        contentType: request.headers['content-type'],
        atMs: Date.now(),
      };
      const index = received.length;
      received.push(delivery);
      const status = answer(index, delivery);
      if (status === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status < 300 ? 'ok' : 'nope');
    });
  });
  return {
    url: `${url}/hooks`,
    received,
    // Bounded by what only a hang reaches: a busy machine delivers late, not never.
    async waitFor(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`receiver got ${received.length} deliveries, expected ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received.slice(0, count);
    },
    close: () => {
      for (const response of hanging) response.destroy();
      return close();
    },
  };
}

/** The contract's check written out on its own, independent of src/contract/signature.ts. */
export function independentlyVerified(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2], 'hex'));
}

/** The `t` of a signature header, in Unix seconds. */
export function signedAt(header: string | undefined): number {
  return Number(/t=(\d+)/.exec(header ?? '')?.[1]);
}

/** A receiver that answers 200 and then streams its body for as long as the client reads it. */
export interface FloodingReceiver {
  url: string;
  /** Per delivery, the bytes of body written before the client stopped reading or closed. */
  sent: number[];
  close(): Promise<void>;
}

/**
 * Answers every POST with 200 and a body that does not end: 64 KiB chunks as fast as the
 * client drains them, up to `ceiling` bytes (so that a client that reads everything costs the
 * test machine a bounded amount, yet far more than any answer a client should read).
 */
export async function startFloodingReceiver(ceiling = 48 * 1024 * 1024): Promise<FloodingReceiver> {
  const sent: number[] = [];
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const { url, close } = await loopbackServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const index = sent.push(0) - 1;
      response.writeHead(200, { 'content-type': 'text/plain' });
      const pump = () => {
        while (!response.destroyed && sent[index] < ceiling) {
          sent[index] += chunk.length;
          if (!response.write(chunk)) return;
        }
        if (!response.destroyed) response.end();
      };
      response.on('drain', pump);
      pump();
    });
  });
  return { url: `${url}/hooks`, sent, close };
}
