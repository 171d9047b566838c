/**
 * The only place that talks HTTP (docs/architecture.md): undici with keep-alive and
 * the environment's proxy, auth, pacing, retries, idempotency keys, error normalisation and
 * --debug lines. One call of send() is one logical request, however many times it goes out.
 * Its two neighbours speak undici too: the route's dispatcher (transport-proxy.ts) and the
 * bounded raw poster to webhook receivers (transport-poster.ts).
 */
import { randomUUID } from 'node:crypto';
import { type Dispatcher, request as undiciRequest } from 'undici';
import {
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
  type KeyMode,
  keyMode,
  maskKey,
} from '../contract/contract.js';
import { answerSpentQuota, spendsWriteQuota } from '../contract/rules/write-quota.js';
import { type ApiError, AuthError, KEY_MALFORMED, ProtocolError, QuotaError, UsageError } from '../errors.js';
import { answerLine, giveUp, requestLine, retryAfterOf, retryNotice, seconds } from './describe.js';
import { classifyNetworkError, flattenHeaders, interpretAnswer, type RawAnswer } from './normalize.js';
import { type KeySharing, keySharing } from './pacing/key-sharing.js';
import { defaultSleep, Pacer, type PacerTicket, preciseNow } from './pacing/pacer.js';
import type { QuotaReading } from './pacing/quota-tally.js';
import { type ProxyInUse, type Route, refuseKeyInClear, routeFor } from './proxy-route.js';
import { bodyForDebug } from './redact.js';
import {
  type AttemptFailure,
  DEFAULT_RETRY_POLICY,
  decideRetry,
  keyPauseMs,
  type RetryPolicy,
} from './retry.js';
import { dispatcherFor } from './transport-proxy.js';
import type { ApiResponse, ClientOptions, RequestSpec } from './types.js';
import { buildUrl } from './url.js';

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
  /** Writes a test key made that the service accepted: simulated, nothing changed. */
  simulatedWrites: number;
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

/** The default deadline of one attempt (--request-timeout, SVC_REQUEST_TIMEOUT). */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

type Attempt = { ok: true; raw: RawAnswer; receivedAt: number } | { ok: false; err: unknown };

/** The HTTP engine behind ApiClient. */
export class Transport {
  readonly pacer: Pacer;
  /** What this client shares with the other svc processes on its key: pacing stores, the quota count, Redis. */
  readonly sharing: KeySharing;
  /** The mode the key declares (undefined without a key, or for a malformed one, which is never sent). */
  readonly keyMode?: KeyMode;
  private readonly counters: TransportStats = {
    requests: 0,
    retries: 0,
    rateLimited: 0,
    waits: 0,
    waitedMs: 0,
    simulatedWrites: 0,
  };
  private readonly options: TransportOptions;
  private readonly policy: RetryPolicy;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private dispatcher?: Dispatcher;
  private grace?: AbortSignal;
  private readonly route: Route;
  /** The plain-http check of the key, made once before the first request that carries it. */
  private keyInClearChecked?: Promise<void>;

  constructor(options: TransportOptions) {
    this.options = options;
    this.sharing = keySharing(options, options.now ?? preciseNow);
    this.now = this.sharing.now;
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.policy = { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy };
    if (options.maxRetries !== undefined) this.policy.maxRetries = options.maxRetries;
    const { primary: shared, fallback } = this.sharing;
    this.pacer =
      options.pacer ??
      new Pacer({ now: this.now, sleep: this.sleep, shared, fallback, debug: options.debug });
    this.dispatcher = options.dispatcher;
    this.route = routeFor(new URL(buildUrl(options.baseUrl, '/')), options.env);
    this.keyMode = options.apiKey ? keyMode(options.apiKey) : undefined;
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

  /** Sends one logical request: paced, retried (docs/guide.md, Waits and deadlines), any 2xx returned with its JSON body. */
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
    if (headers.authorization !== undefined) {
      this.keyInClearChecked ??= refuseKeyInClear(this.options.baseUrl);
      await this.keyInClearChecked;
    }
    const body = spec.jsonBytes ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const repeatable =
      spec.repeatable ?? (spec.method === 'GET' || spec.method === 'PUT' || spec.method === 'PATCH');
    const paced = spec.auth !== false;
    const state = { retries: 0, rateLimitWaitedMs: 0, rateLimitWaits: 0 };
    const countsQuota = spendsWriteQuota(spec.method, spec.path);
    let attempts = 0;
    // After a stop nothing new goes out: no attempt starts, no retry waits.
    const startSignal = anyOf(spec.signal, this.options.stopSignal);
    for (;;) {
      startSignal?.throwIfAborted();
      const ticket = paced ? await this.pacer.acquire(startSignal) : undefined;
      if (startSignal?.aborted) {
        releaseTicket(this.pacer, ticket);
        throw startSignal.reason;
      }
      const sentAt = this.now();
      attempts += 1;
      this.counters.requests += 1;
      this.counters.firstSentAt ??= sentAt;
      this.debug(() => requestLine(spec.method, url, headers));
      if (body !== undefined)
        this.debug(
          () =>
            `  ${bodyForDebug(typeof body === 'string' ? spec.body : Buffer.from(body).toString('utf8'))}`,
        );
      const cutOff = anyOf(spec.signal, this.graceOver());
      const attempt = await this.exchange(spec, url, headers, body, cutOff).catch((error: unknown) => {
        releaseTicket(this.pacer, ticket);
        throw error;
      });
      if (cutOff?.aborted) {
        releaseTicket(this.pacer, ticket);
        throw cutOff.reason;
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
        if (ticket) {
          const pauseMs = keyPauseMs(retryAfterMs, this.policy);
          this.pacer.observe(
            ticket,
            { status: raw.status, headers: raw.headers, rateLimited, retryAfterMs: pauseMs },
            receivedAt,
          );
        }
        this.debug(() => answerLine(raw, receivedAt - sentAt));
        if (raw.text) this.debug(() => `  ${bodyForDebug(raw.text)}`);
        if (interpreted.ok) {
          if (spec.method !== 'GET' && headers.authorization !== undefined && this.keyMode === 'test')
            this.counters.simulatedWrites += 1;
          // A replay of this very write's earlier attempt says that attempt was accepted, and counted.
          const replayed = raw.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true' && attempts === 1;
          const live = headers.authorization !== undefined && this.keyMode === 'live';
          if (countsQuota && answerSpentQuota(raw.status, live, replayed))
            this.sharing.quota?.spend(receivedAt);
          return interpreted.response;
        }
        error = interpreted.error;
        const code = error instanceof QuotaError ? ERROR_CODES.writeQuotaExceeded : (error as ApiError).code;
        failure = { kind: 'status', status: raw.status, code, retryAfterMs };
      } else {
        releaseTicket(this.pacer, ticket);
        const classified = classifyNetworkError(
          attempt.err,
          new URL(url).origin,
          this.proxy,
          this.options.ca?.source,
        );
        this.debug(() => `✗ ${classified.error.message} after ${Math.round(this.now() - sentAt)} ms`);
        error = classified.error;
        failure = { kind: 'network', sent: classified.sent, fatal: classified.fatal };
      }
      const decision = decideRetry(failure, state, repeatable, this.random, this.policy);
      if (!decision.retry) throw giveUp(error, decision.reason, spec, state, this.policy);
      if (decision.counted) state.retries += 1;
      else {
        state.rateLimitWaitedMs += decision.delayMs;
        state.rateLimitWaits += 1;
      }
      this.notice(retryNotice(error, decision, state.retries, this.policy.maxRetries));
      if (decision.counted) this.counters.retries += 1;
      // The pacer already holds every request until Retry-After; only unpaced requests sleep here.
      if (!decision.rateLimit || !paced) await this.wait(decision.delayMs, startSignal);
    }
  }

  /** What svc counted of the write quota spent on this key today (this machine's, or every machine's through Redis). */
  quotaSpent(): Promise<QuotaReading | undefined> {
    return this.sharing.quota?.read() ?? Promise.resolve(undefined);
  }

  /** Closes the keep-alive connections, leaves the pacing shared with other processes, and settles the quota count. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (!this.options.pacer) await this.pacer.close();
    await this.sharing.quota?.settled();
    await this.sharing.link?.close();
    if (dispatcher && dispatcher !== this.options.dispatcher) await dispatcher.close();
  }

  /** The proxy requests go through, when one does (and no dispatcher was handed in). */
  private get proxy(): ProxyInUse | undefined {
    return this.route.via === 'proxy' && !this.options.dispatcher ? this.route.proxy : undefined;
  }

  private agent(): Dispatcher {
    this.dispatcher ??= dispatcherFor(
      this.route,
      this.options.connectTimeoutMs ?? 10_000,
      this.options.ca?.pem,
    );
    return this.dispatcher;
  }

  private headersFor(spec: RequestSpec, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'svc',
    };
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      // The key is sent only as the client's own Authorization, never as a caller's header.
      if (name.toLowerCase() !== 'authorization') headers[name.toLowerCase()] = value;
    }
    const key = this.options.apiKey;
    if (spec.auth !== false && key) {
      // A malformed key is never sent (docs/service-contract.md, Keys).
      if (!this.keyMode) {
        throw new AuthError(
          `the API key ${maskKey(key)} is malformed (expected svc_live_… or svc_test_…)`,
          KEY_MALFORMED,
        );
      }
      headers.authorization = `Bearer ${key}`;
    }
    if (spec.body !== undefined || spec.jsonBytes !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers[IDEMPOTENCY_HEADER] = idempotencyKey;
    return headers;
  }

  /**
   * One attempt, bounded by the request deadline from sending to the last byte: a server that
   * never answers, or trickles its answer, fails the attempt as a network error (ETIMEDOUT).
   */
  private async exchange(
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    cutOff: AbortSignal | undefined,
  ): Promise<Attempt> {
    const deadlineMs = this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(deadlineMs);
    // Outside the try: a proxy variable that cannot be used is the user's to fix, not a network error.
    const dispatcher = this.agent();
    try {
      const answer = await undiciRequest(url, {
        dispatcher,
        method: spec.method,
        headers,
        body,
        signal: anyOf(cutOff, deadline),
        headersTimeout: deadlineMs,
        bodyTimeout: deadlineMs,
      });
      const text = await readCapped(answer, `${spec.method} ${spec.path}`);
      return {
        ok: true,
        raw: { status: answer.statusCode, headers: flattenHeaders(answer.headers), text },
        receivedAt: this.now(),
      };
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      if (deadline.aborted && !cutOff?.aborted) {
        const timedOut = new Error(`no complete answer within ${seconds(deadlineMs)}`);
        // Its own code, so the words say which deadline; `sent`: a write may have been applied.
        return { ok: false, err: Object.assign(timedOut, { code: 'REQUEST_TIMEOUT', cause: err }) };
      }
      return { ok: false, err };
    }
  }

  /** Aborted `stopGraceMs` after the stop signal: in-flight attempts are given up then. */
  private graceOver(): AbortSignal | undefined {
    const stop = this.options.stopSignal;
    if (!stop) return undefined;
    if (!this.grace) {
      const controller = new AbortController();
      const arm = () =>
        setTimeout(() => controller.abort(stop.reason), this.options.stopGraceMs ?? 2000).unref();
      if (stop.aborted) arm();
      else stop.addEventListener('abort', arm, { once: true });
      this.grace = controller.signal;
    }
    return this.grace;
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

/** A line to a sink that must not break the request it describes (a closed stderr, say). */
function report(sink: ((line: string) => void) | undefined, line: string | (() => string)): void {
  try {
    sink?.(typeof line === 'string' ? line : line());
  } catch {
    // Losing a line beats losing the request, and its pacer ticket with it.
  }
}

/** The largest answer read (64 MiB): a bigger one is refused rather than held in memory. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An answer's body as text, refused (ProtocolError, not retried) past MAX_ANSWER_BYTES. */
async function readCapped(answer: Dispatcher.ResponseData, what: string): Promise<string> {
  const tooLarge = () => {
    answer.body.destroy();
    return new ProtocolError(
      `the answer to ${what} is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB; not read (ask for less, e.g. a smaller --limit)`,
    );
  };
  if (Number(answer.headers['content-length'] ?? 0) > MAX_ANSWER_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** The signals that are given, combined; undefined when none is. */
function anyOf(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  return given.length <= 1 ? given[0] : AbortSignal.any(given);
}

function releaseTicket(pacer: Pacer, ticket: PacerTicket | undefined): void {
  if (ticket) pacer.release(ticket);
}
