/**
 * A small node:http server that misbehaves the ways the emulator cannot: answers that trickle,
 * never come, loop their cursors, or page emptily forever. Loopback only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loopbackServer } from './loopback-server.js';

/** A request as it arrived, with the time it did. */
interface Arrival {
  method: string;
  url: string;
  atMs: number;
}

/** A running misbehaving server. */
export interface MisbehavingServer {
  /** Base URL (the part before /rest/v1). */
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

/** Answers each request with `handle`; `n` counts requests from 0. */
export async function misbehavingServer(
  handle: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<MisbehavingServer> {
  const arrivals: Arrival[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const { url, close } = await loopbackServer((req, res) => {
    arrivals.push({ method: req.method ?? '', url: req.url ?? '', atMs: performance.now() });
    req.resume();
    handle(req, res, arrivals.length - 1);
  });
  return {
    url,
    arrivals,
    close: () => {
      for (const timer of timers) clearInterval(timer);
      return close();
    },
  };
}

/** Sends JSON with a status and headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Headers at once, then the body one byte every `everyMs`, never ending. */
export function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => {
    if (res.destroyed) clearInterval(timer);
    else res.write(' ');
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

/** A 429 rate_limit_exceeded with the given Retry-After value. */
export function rateLimited(res: ServerResponse, retryAfter: string): void {
  sendJson(
    res,
    429,
    { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Too many requests.' } },
    { 'retry-after': retryAfter },
  );
}

/** The key format the client accepts (test mode: never spends anything). */
export const ANY_KEY = 'svc_test_misbehaving0000000000';
