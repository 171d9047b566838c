/**
 * The core every request goes through, in the contract's order: authentication (401),
 * rate limit (429), route (404), scope (403), plan (403), then the request itself
 * (Idempotency-Key, body, idempotent replay, write quota, the handler).
 */
import { randomBytes } from 'node:crypto';
import {
  API_PREFIX,
  ERROR_CODES,
  ERROR_TYPES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
  RATE_LIMIT_HEADERS,
} from '../../contract/contract.js';
import type { Store } from '../store/store.js';
import { type ApiKeyRecord, type KeyRing, requirePlan, requireScope } from './auth.js';
import { HttpError, invalidParam, notFound } from './errors.js';
import type { FaultHit, FaultInjector, FaultKind } from './faults.js';
import {
  canonicalJson,
  fingerprint,
  type IdempotencyStore,
  type LeakyBuckets,
  type WriteQuota,
} from './limits.js';
import { header, type IncomingRequest, parseBody, requestUrl } from './request-reading.js';
import type { EmulatorResponse, RouteMatch, Router } from './router.js';

/** What the server does with a request: answer it, or drop the connection. */
export type Outcome =
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'drop' };

/** One handled request, kept for tests to assert on. */
export interface RequestRecord {
  seq: number;
  atMs: number;
  method: string;
  /** Path below /rest/v1 without the query. */
  path: string;
  query: string;
  /** The matched route as `METHOD /pattern`, or null. */
  route: string | null;
  /** The answer's status; null when the connection was dropped before answering. */
  status: number | null;
  /** The name of the key used, or null. */
  keyName: string | null;
  idempotencyKey: string | null;
  replayed: boolean;
  fault: FaultKind | null;
}

/** The parts the core works with. */
export interface CoreParts {
  store: Store;
  /** Brings the simulations up to the clock's time; runs before each request (and on the emulator's own timer). */
  advance: () => void;
  keys: KeyRing;
  router: Router;
  buckets: LeakyBuckets;
  quota: WriteQuota;
  idempotency: IdempotencyStore;
  faults: FaultInjector;
  rateLimit: boolean;
}

const LOG_CAP = 200_000;

/** Runs requests through the checks and the handlers, and keeps the request log. */
export class EmulatorCore {
  readonly log: RequestRecord[] = [];
  private seq = 0;

  constructor(private readonly parts: CoreParts) {}

  /** Handle one request. */
  async handle(request: IncomingRequest): Promise<Outcome> {
    const { store, faults } = this.parts;
    const url = requestUrl(request.url);
    const prefixed = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`);
    const path = prefixed ? url.pathname.slice(API_PREFIX.length) || '/' : url.pathname;
    const record: RequestRecord = {
      seq: ++this.seq,
      atMs: store.now(),
      method: request.method,
      path,
      query: url.search,
      route: null,
      status: null,
      keyName: null,
      idempotencyKey: header(request, IDEMPOTENCY_HEADER) ?? null,
      replayed: false,
      fault: null,
    };
    this.remember(record);
    const method = request.method.toUpperCase();
    // Matched up front so that the log names the route of faulted requests too. HEAD is GET
    // without a body (RFC 9110), so it takes the GET route: same checks, status and headers.
    const match = prefixed ? this.parts.router.match(method === 'HEAD' ? 'GET' : method, path) : undefined;
    if (match) record.route = `${method} ${match.route.pattern}`;
    const fault = faults.take(request.method, path, API_PREFIX);
    if (fault) {
      record.fault = fault.kind;
      if (fault.kind === 'drop_before') return { kind: 'drop' };
      if (fault.kind === 'delay') await held(fault);
      const injected = injectedError(fault.kind, fault.retryAfter);
      if (injected) return this.answer(record, injected.status, injected.body(), injected.headers);
    }
    const outcome = this.process(request, url, prefixed ? path : null, match, record);
    if (fault?.kind === 'drop_after') {
      record.status = null;
      return { kind: 'drop' };
    }
    return method === 'HEAD' && outcome.kind === 'answer' ? { ...outcome, body: '' } : outcome;
  }

  private process(
    request: IncomingRequest,
    url: URL,
    path: string | null,
    match: RouteMatch | undefined,
    record: RequestRecord,
  ): Outcome {
    const { store, keys, buckets, rateLimit } = this.parts;
    this.parts.advance();
    const method = match?.route.method ?? request.method.toUpperCase();
    const headers: Record<string, string> = {};
    let idempotent: { apiKey: string; key: string; fingerprint: string } | null = null;
    try {
      if (match && match.route.scope === null) {
        const response = match.route.handler(
          store,
          this.toRequest(method, path ?? '', url, match.params, {}, null),
        );
        return this.respond(record, response, headers);
      }
      const key = keys.authenticate(header(request, 'authorization'));
      record.keyName = key.name;
      if (rateLimit) {
        const decision = buckets.take(key.secret, store.now(), key.bucket, key.drainPerSecond);
        headers[RATE_LIMIT_HEADERS.limit] = String(decision.limit);
        headers[RATE_LIMIT_HEADERS.remaining] = String(decision.remaining);
        headers[RATE_LIMIT_HEADERS.reset] = String(decision.resetSeconds);
        if (!decision.admitted) {
          throw new HttpError(
            429,
            ERROR_TYPES.rateLimit,
            ERROR_CODES.rateLimitExceeded,
            `Too many requests: the bucket of ${decision.limit} is full; retry in ${decision.retryAfterSeconds} s.`,
            { headers: { 'retry-after': String(decision.retryAfterSeconds) } },
          );
        }
      }
      if (!match) throw notFound(`Unrecognized request URL (${method} ${url.pathname}).`);
      requireScope(key, match.route.scope);
      requirePlan(key);
      const write = method !== 'GET';
      const idempotencyKey = write ? header(request, IDEMPOTENCY_HEADER) : undefined;
      if (idempotencyKey !== undefined) {
        if (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
          throw invalidParam(
            'Idempotency-Key',
            `The Idempotency-Key header must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters long.`,
          );
        }
        headers[IDEMPOTENCY_HEADER] = idempotencyKey;
      }
      const body = write ? parseBody(request.body, header(request, 'content-type')) : {};
      if (idempotencyKey !== undefined) {
        idempotent = {
          apiKey: key.secret,
          key: idempotencyKey,
          // The path is compared decoded, so `%2F` and `%2f` in a SKU name the same request.
          fingerprint: fingerprint(method, `${match.route.pattern} ${canonicalJson(match.params)}`, body),
        };
        const found = this.parts.idempotency.lookup(
          key.secret,
          idempotencyKey,
          idempotent.fingerprint,
          store.now(),
        );
        if (found.kind === 'replay') {
          record.replayed = true;
          const replayHeaders = { ...found.answer.headers, ...headers, [IDEMPOTENT_REPLAYED_HEADER]: 'true' };
          return this.answer(record, found.answer.status, found.answer.body, replayHeaders);
        }
        if (found.kind === 'conflict') {
          throw new HttpError(
            409,
            ERROR_TYPES.idempotency,
            ERROR_CODES.idempotencyKeyReused,
            'This Idempotency-Key was already used with a different method, path or body.',
            { param: 'Idempotency-Key' },
          );
        }
      }
      const counted = match.route.quota === true && key.mode === 'live';
      if (counted) {
        const retryAfter = this.parts.quota.exhausted(store.now());
        if (retryAfter !== undefined) {
          throw new HttpError(
            429,
            ERROR_TYPES.rateLimit,
            ERROR_CODES.writeQuotaExceeded,
            `The daily write quota of ${this.parts.quota.limit} is used up; it resets at 00:00 UTC.`,
            { headers: { 'retry-after': String(retryAfter) } },
          );
        }
      }
      // All or nothing: a handler that throws (an error answer or a failure) leaves no write behind.
      const response = store.transaction(() =>
        match.route.handler(store, this.toRequest(method, path ?? '', url, match.params, body, key)),
      );
      if (counted && response.status >= 200 && response.status < 300) this.parts.quota.record(store.now());
      if (idempotent) this.save(idempotent, response.status, response.body, response.headers ?? {});
      return this.respond(record, response, headers);
    } catch (error) {
      const failure =
        error instanceof HttpError
          ? error
          : new HttpError(
              500,
              ERROR_TYPES.api,
              ERROR_CODES.internalError,
              `The emulator failed: ${String(error)}`,
            );
      if (idempotent) this.save(idempotent, failure.status, failure.body(), failure.headers);
      return this.answer(record, failure.status, failure.body(), { ...headers, ...failure.headers });
    }
  }

  private save(
    idempotent: { apiKey: string; key: string; fingerprint: string },
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ): void {
    this.parts.idempotency.save(idempotent.apiKey, idempotent.key, {
      fingerprint: idempotent.fingerprint,
      status,
      body,
      headers,
      storedAtMs: this.parts.store.now(),
    });
  }

  private toRequest(
    method: string,
    path: string,
    url: URL,
    params: Record<string, string>,
    body: unknown,
    key: ApiKeyRecord | null,
  ) {
    return { method, path, params, query: url.searchParams, body, key };
  }

  private respond(
    record: RequestRecord,
    response: EmulatorResponse,
    headers: Record<string, string>,
  ): Outcome {
    return this.answer(record, response.status, response.body, { ...headers, ...response.headers });
  }

  private answer(
    record: RequestRecord,
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ): Outcome {
    record.status = status;
    const text = JSON.stringify(body);
    return {
      kind: 'answer',
      status,
      headers: {
        ...headers,
        'request-id': `req_${randomBytes(8).toString('hex')}`,
        date: new Date(this.parts.store.now()).toUTCString(),
        'content-type': 'application/json; charset=utf-8',
        // Also on HEAD, where it is the length GET would send (RFC 9110, 8.6).
        'content-length': String(Buffer.byteLength(text)),
      },
      body: text,
    };
  }

  private remember(record: RequestRecord): void {
    this.log.push(record);
    if (this.log.length > LOG_CAP) this.log.splice(0, this.log.length - LOG_CAP);
  }

  /** Forget the request log. */
  clearLog(): void {
    this.log.length = 0;
  }
}

function injectedError(kind: FaultKind, retryAfter: number): HttpError | undefined {
  const headers = { 'retry-after': String(retryAfter) };
  if (kind === 'internal_error') {
    return new HttpError(500, ERROR_TYPES.api, ERROR_CODES.internalError, 'Injected fault: internal error.');
  }
  if (kind === 'service_unavailable') {
    return new HttpError(
      503,
      ERROR_TYPES.api,
      ERROR_CODES.serviceUnavailable,
      'Injected fault: unavailable.',
      {
        headers,
      },
    );
  }
  if (kind === 'rate_limited') {
    return new HttpError(
      429,
      ERROR_TYPES.rateLimit,
      ERROR_CODES.rateLimitExceeded,
      'Injected fault: rate limited.',
      {
        headers,
      },
    );
  }
  return undefined;
}

/** A `delay` fault: its real time, cut short when its `until` settles. */
async function held(fault: FaultHit): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, fault.delayMs);
  });
  try {
    await Promise.race([
      elapsed,
      ...(fault.until
        ? [
            fault.until.then(
              () => {},
              () => {},
            ),
          ]
        : []),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
