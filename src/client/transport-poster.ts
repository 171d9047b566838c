/**
 * The bounded raw poster: one POST to any URL (a user's webhook receiver), no auth, pacing or
 * retries, a few KiB of the answer read at most. `events replay` and `events listen` deliver
 * through it (delivery.ts); the emulator has a plain poster of its own.
 */
import { type Dispatcher, request as undiciRequest } from 'undici';
import { NetworkError } from '../errors.js';
import { seconds } from './describe.js';
import { classifyNetworkError, flattenHeaders } from './normalize.js';
import { type Route, routeFor } from './proxy-route.js';
import { dispatcherFor } from './transport-proxy.js';

/** One raw POST's answer, whatever its status. */
export interface RawPostAnswer {
  status: number;
  headers: Record<string, string>;
  /** The first MAX_RECEIVER_ANSWER_BYTES of the body at most. */
  text: string;
}

/**
 * How much of a receiver's answer is read (4 KiB): only its status matters, and a receiver
 * that streams an endless body must not hold a delivery, or the memory of the process.
 */
const MAX_RECEIVER_ANSWER_BYTES = 4 * 1024;

/** The first `max` bytes of an answer's body as text; the rest is not read (the connection is closed). */
async function readAtMost(answer: Dispatcher.ResponseData, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    const bytes = chunk as Buffer;
    chunks.push(bytes.subarray(0, max - size));
    size += Math.min(bytes.length, max - size);
    if (size >= max) {
      answer.body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Limits of one raw POST. */
export interface RawPostOptions {
  /** Whole exchange, connect to last body byte. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Raw POSTs to arbitrary URLs (webhook receivers): no auth, pacing or retries, which the
 * delivery module (src/client/delivery.ts) adds. Network failures become NetworkError; an
 * abort of the caller's signal rethrows its reason.
 */
export class RawPoster {
  /** One agent per route (direct, or each proxy), made on first use. */
  private readonly dispatchers = new Map<string, Dispatcher>();

  constructor(private readonly options: { dispatcher?: Dispatcher } = {}) {}

  /** Sends `body` once and reads its answer (a few KiB of the body at most) within `timeoutMs`. */
  async post(
    url: string,
    body: string,
    headers: Record<string, string>,
    options: RawPostOptions,
  ): Promise<RawPostAnswer> {
    options.signal?.throwIfAborted();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const origin = originOf(url);
    const route = this.options.dispatcher ? undefined : routeFor(new URL(url));
    const dispatcher = this.agent(route);
    try {
      const answer = await undiciRequest(url, {
        dispatcher,
        method: 'POST',
        headers,
        body,
        signal,
      });
      const text = await readAtMost(answer, MAX_RECEIVER_ANSWER_BYTES);
      return { status: answer.statusCode, headers: flattenHeaders(answer.headers), text };
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new NetworkError(`${origin} did not answer within ${seconds(options.timeoutMs)}`, 'ETIMEDOUT', {
          cause: err,
        });
      }
      throw classifyNetworkError(err, origin, route?.via === 'proxy' ? route.proxy : undefined).error;
    }
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    const dispatchers = [...this.dispatchers.values()];
    this.dispatchers.clear();
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.close()));
  }

  private agent(route: Route | undefined): Dispatcher {
    if (!route) return this.options.dispatcher as Dispatcher;
    const key = route.via === 'proxy' ? route.proxy.uri : 'direct';
    let dispatcher = this.dispatchers.get(key);
    if (!dispatcher) {
      dispatcher = dispatcherFor(route, 10_000);
      this.dispatchers.set(key, dispatcher);
    }
    return dispatcher;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
