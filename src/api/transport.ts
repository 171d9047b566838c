/**
 * The only place that talks HTTP (ARCHITECTURE.md, One transport): undici with keep-alive and
 * the environment's proxy, auth, pacing, retries, idempotency keys, error normalisation and
 * --debug lines. One call of send() is one logical request, however many times it goes out.
 */
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { type Dispatcher, EnvHttpProxyAgent, request as undiciRequest } from 'undici';
import { type ApiError, AuthError, NetworkError, QuotaError, UsageError } from '../errors.js';
import {
  API_KEY_PATTERN,
  API_PREFIX,
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  maskKey,
} from './contract.js';
import { answerLine, giveUp, requestLine, retryAfterOf, retryNotice, seconds } from './describe.js';
import { classifyNetworkError, flattenHeaders, interpretAnswer, type RawAnswer } from './normalize.js';
import { defaultSleep, Pacer, type PacerTicket, preciseNow } from './pacer.js';
import { bodyForDebug } from './redact.js';
import { type AttemptFailure, DEFAULT_RETRY_POLICY, decideRetry, type RetryPolicy } from './retry.js';
import { openSharedStore } from './shared-pacing.js';
import type { ApiResponse, ClientOptions, QueryValue, RequestSpec } from './types.js';

/** Counters for summaries and benchmarks. */
export interface TransportStats {
  /** Requests that went out, retries included. */
  requests: number;
  /** Retries that counted against --max-retries. */
  retries: number;
  /** 429 rate_limit_exceeded answers seen. */
  rateLimited: number;
  /** Times a request waited (pacing, Retry-After, backoff), and for how long in all. */
  waits: number;
  waitedMs: number;
  /** First request sent and last answer received (clock of the options), for wall-time figures. */
  firstSentAt?: number;
  lastAnswerAt?: number;
}

/** Transport settings beyond ClientOptions: a shared pacer, policy overrides, a dispatcher for tests. */
export interface TransportOptions extends ClientOptions {
  pacer?: Pacer;
  retryPolicy?: Partial<RetryPolicy>;
  dispatcher?: Dispatcher;
}

type Attempt = { ok: true; raw: RawAnswer; receivedAt: number } | { ok: false; err: unknown };

// undici parses HTTP with llhttp compiled to WebAssembly at the first connection. V8's
// optimising tier for that module costs about 35 MB of peak memory and 100 ms or more, more
// than a CLI's whole crawl gains from it (bench/memory.mjs); the baseline tier is plenty.
// The flag is read when a module compiles, so setting it before the first request suffices.
setFlagsFromString('--liftoff-only');

/** The HTTP engine behind ApiClient. */
export class Transport {
  readonly pacer: Pacer;
  private readonly counters: TransportStats = {
    requests: 0,
    retries: 0,
    rateLimited: 0,
    waits: 0,
    waitedMs: 0,
  };
  private readonly options: TransportOptions;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private dispatcher?: Dispatcher;

  constructor(options: TransportOptions) {
    this.options = options;
    this.now = options.now ?? preciseNow;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
    if (options.maxRetries !== undefined) this.policy.maxRetries = options.maxRetries;
    this.pacer = options.pacer ?? new Pacer({ now: this.now, sleep: this.sleep, ...this.sharing() });
    this.dispatcher = options.dispatcher;
  }

  /** The counters so far, pacing waits included. */
  get stats(): TransportStats {
    const { waits, waitedMs } = this.pacer;
    return {
      ...this.counters,
      waits: this.counters.waits + waits,
      waitedMs: this.counters.waitedMs + waitedMs,
    };
  }

  /** Sends one logical request: paced, retried per CLI.md, any 2xx returned with its JSON body. */
  async send(spec: RequestSpec): Promise<ApiResponse> {
    const url = buildUrl(this.options.baseUrl, spec.path, spec.query);
    const idempotencyKey = spec.method === 'GET' ? undefined : (spec.idempotencyKey ?? randomUUID());
    if (
      idempotencyKey !== undefined &&
      (idempotencyKey.length < 1 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    ) {
      throw new UsageError(`an Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    }
    const headers = this.headersFor(spec, idempotencyKey);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const repeatable =
      spec.repeatable ?? (spec.method === 'GET' || spec.method === 'PUT' || spec.method === 'PATCH');
    const paced = spec.auth !== false;
    const state = { retries: 0, rateLimitWaitedMs: 0 };
    for (;;) {
      spec.signal?.throwIfAborted();
      const ticket = paced ? await this.pacer.acquire(spec.signal) : undefined;
      const sentAt = this.now();
      this.counters.requests += 1;
      this.counters.firstSentAt ??= sentAt;
      this.debug(() => requestLine(spec.method, url, headers));
      if (body !== undefined) this.debug(() => `  ${bodyForDebug(spec.body)}`);
      const attempt = await this.exchange(spec, url, headers, body);
      if (spec.signal?.aborted) {
        releaseTicket(this.pacer, ticket);
        throw spec.signal.reason;
      }
      let error: Error;
      let failure: AttemptFailure;
      if (attempt.ok) {
        const { raw, receivedAt } = attempt;
        this.counters.lastAnswerAt = receivedAt;
        const interpreted = interpretAnswer(raw, url, receivedAt);
        const rateLimited =
          raw.status === 429 && !(interpreted.ok || interpreted.error instanceof QuotaError);
        const retryAfterMs = interpreted.ok ? undefined : retryAfterOf(interpreted.error);
        if (rateLimited) this.counters.rateLimited += 1;
        if (ticket)
          this.pacer.observe(
            ticket,
            { status: raw.status, headers: raw.headers, rateLimited, retryAfterMs },
            receivedAt,
          );
        this.debug(() => answerLine(raw, receivedAt - sentAt));
        if (raw.text) this.debug(() => `  ${bodyForDebug(raw.text)}`);
        if (interpreted.ok) return interpreted.response;
        error = interpreted.error;
        const code = error instanceof QuotaError ? ERROR_CODES.writeQuotaExceeded : (error as ApiError).code;
        failure = { kind: 'status', status: raw.status, code, retryAfterMs };
      } else {
        releaseTicket(this.pacer, ticket);
        const classified = classifyNetworkError(attempt.err, new URL(url).origin);
        this.debug(() => `✗ ${classified.error.message} after ${Math.round(this.now() - sentAt)} ms`);
        error = classified.error;
        failure = { kind: 'network', sent: classified.sent, fatal: classified.fatal };
      }
      const decision = decideRetry(failure, state, repeatable, this.random, this.policy);
      if (!decision.retry) throw giveUp(error, decision.reason, spec, state.retries, this.policy);
      if (decision.counted) state.retries += 1;
      else state.rateLimitWaitedMs += decision.delayMs;
      this.notice(retryNotice(error, decision, state.retries, this.policy.maxRetries));
      if (decision.counted) this.counters.retries += 1;
      // The pacer already holds every request until Retry-After; only unpaced requests sleep here.
      if (!decision.rateLimit || !paced) await this.wait(decision.delayMs, spec.signal);
    }
  }

  /** Closes the keep-alive connections, and leaves the pacing shared with other processes. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (!this.options.pacer) await this.pacer.close();
    if (dispatcher && dispatcher !== this.options.dispatcher) await dispatcher.close();
  }

  /** Pacing shared with the other processes on the key, when asked for (shared-pacing.ts). */
  private sharing(): { shared?: ReturnType<typeof openSharedStore>; debug?: (line: string) => void } {
    const { sharedPacing, apiKey, baseUrl } = this.options;
    const debug = this.options.debug && ((line: string) => this.debug(() => line));
    if (!sharedPacing || !apiKey) return { debug };
    return { shared: openSharedStore(sharedPacing.dir, apiKey, baseUrl, this.now), debug };
  }

  private agent(): Dispatcher {
    // EnvHttpProxyAgent honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY, and goes direct without them.
    this.dispatcher ??= new EnvHttpProxyAgent({
      connect: { timeout: this.options.connectTimeoutMs ?? 10_000 },
      // Below common server idle timeouts, so a reused socket is rarely closed under a write.
      keepAliveTimeout: 4_000,
    });
    return this.dispatcher;
  }

  private headersFor(spec: RequestSpec, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'svc',
    };
    const key = this.options.apiKey;
    if (spec.auth !== false && key) {
      // CONTRACT.md: a malformed key is never sent.
      if (!API_KEY_PATTERN.test(key)) {
        throw new AuthError(
          `the API key ${maskKey(key)} is malformed (expected svc_live_… or svc_test_…)`,
          'api_key_malformed',
        );
      }
      headers.authorization = `Bearer ${key}`;
    }
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    return headers;
  }

  private async exchange(
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Attempt> {
    const readTimeout = this.options.readTimeoutMs ?? 60_000;
    try {
      const answer = await undiciRequest(url, {
        dispatcher: this.agent(),
        method: spec.method,
        headers,
        body,
        signal: spec.signal,
        headersTimeout: readTimeout,
        bodyTimeout: readTimeout,
      });
      const text = await answer.body.text();
      return {
        ok: true,
        raw: { status: answer.statusCode, headers: flattenHeaders(answer.headers), text },
        receivedAt: this.now(),
      };
    } catch (err) {
      return { ok: false, err };
    }
  }

  private async wait(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0) return;
    this.counters.waits += 1;
    this.counters.waitedMs += ms;
    await this.sleep(ms, signal);
  }

  /** Builds the line only under --debug: redacting every body costs a bulk run real time. */
  private debug(line: () => string): void {
    if (this.options.debug) report(this.options.debug, line);
  }

  private notice(line: string): void {
    report(this.options.notice, line);
  }
}

/** `{baseUrl}/rest/v1{path}?query`, tolerant of a trailing slash or a base that already ends in /rest/v1. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new UsageError(`the base URL must be an http:// or https:// address, got "${baseUrl}"`);
  }
  let base = baseUrl.replace(/\/+$/, '');
  if (!base.endsWith(API_PREFIX)) base += API_PREFIX;
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}

/** A line to a sink that must not break the request it describes (a closed stderr, say). */
function report(sink: ((line: string) => void) | undefined, line: string | (() => string)): void {
  try {
    sink?.(typeof line === 'string' ? line : line());
  } catch {
    // Losing a line beats losing the request, and its pacer ticket with it.
  }
}

function releaseTicket(pacer: Pacer, ticket: PacerTicket | undefined): void {
  if (ticket) pacer.release(ticket);
}

/** One raw POST's answer, whatever its status. */
export interface RawPostAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Limits of one raw POST. */
export interface RawPostOptions {
  /** Whole exchange, connect to last body byte. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Raw POSTs to arbitrary URLs (webhook receivers): no auth, pacing or retries, which the
 * delivery module (src/api/delivery.ts) adds. Network failures become NetworkError; an
 * abort of the caller's signal rethrows its reason.
 */
export class RawPoster {
  private dispatcher?: Dispatcher;

  constructor(private readonly options: { dispatcher?: Dispatcher } = {}) {}

  /** Sends `body` once and reads the whole answer within `timeoutMs`. */
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
    try {
      const answer = await undiciRequest(url, {
        dispatcher: this.agent(),
        method: 'POST',
        headers,
        body,
        signal,
      });
      const text = await answer.body.text();
      return { status: answer.statusCode, headers: flattenHeaders(answer.headers), text };
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.aborted) {
        throw new NetworkError(`${origin} did not answer within ${seconds(options.timeoutMs)}`, 'ETIMEDOUT', {
          cause: err,
        });
      }
      throw classifyNetworkError(err, origin).error;
    }
  }

  /** Closes the keep-alive connections. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (dispatcher && dispatcher !== this.options.dispatcher) await dispatcher.close();
  }

  private agent(): Dispatcher {
    this.dispatcher ??=
      this.options.dispatcher ??
      new EnvHttpProxyAgent({ connect: { timeout: 10_000 }, keepAliveTimeout: 4_000 });
    return this.dispatcher;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
