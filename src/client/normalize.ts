/**
 * Turning what came over the wire into an ApiResponse or one of the typed errors of
 * src/errors.ts, in one place. Pure: the transport hands in status, headers and text.
 */

import { msUntilUtcMidnight, REQUEST_ID_HEADERS } from '../contract/contract.js';
import { ApiError, type ApiErrorBody, NetworkError, ProtocolError, QuotaError } from '../errors.js';
import type { ProxyInUse } from './proxy-route.js';
import { isQuotaExhausted, parseRetryAfter } from './retry.js';
import type { ApiResponse } from './types.js';

/** An answer as read off the socket, before interpretation. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The answer interpreted: a success to hand up, or an error the retry policy judges. */
export type Interpreted = { ok: true; response: ApiResponse } | { ok: false; error: Error };

/** Headers with lower-case names and array values joined, as undici may hand them over. */
export function flattenHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Interpret any answer: 2xx becomes a response, anything else a typed error. */
export function interpretAnswer(raw: RawAnswer, url: string, nowMs: number): Interpreted {
  const { status, headers } = raw;
  const contentType = headers['content-type'];
  const parsed = parseJson(raw.text);
  const serverDate = parseDate(headers.date);
  if (status >= 200 && status < 300) {
    if (!parsed.ok) return { ok: false, error: notJson(url, status, contentType) };
    return { ok: true, response: { status, headers, body: parsed.value, serverDate } };
  }
  const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  const requestId = REQUEST_ID_HEADERS.map((name) => headers[name]).find(Boolean);
  const body = parsed.ok ? errorBodyOf(parsed.value) : undefined;
  if (body === undefined) {
    // A proxy's HTML 502 or 429 still means "try again"; a 404 page means a wrong address.
    if (status >= 500 || status === 429) {
      const what = contentType ? contentType.split(';')[0].trim() : 'no content type';
      const message = `the service at ${url} answered with ${what} instead of a JSON error`;
      return {
        ok: false,
        error: new ApiError(status, { message }, { retryAfterSeconds, requestId, headers }),
      };
    }
    if (status >= 300 && status < 400) {
      const location = headers.location ? ` to ${headers.location}` : '';
      return {
        ok: false,
        error: new ProtocolError(
          `the service at ${url} answered HTTP ${status} (a redirect${location}); check --base-url`,
        ),
      };
    }
    return { ok: false, error: notJson(url, status, contentType) };
  }
  if (isQuotaExhausted(status, body.code)) {
    // Retry-After counts whole seconds, rounded up: the reset is the whole second it reaches.
    const resetsAt = new Date(
      retryAfterMs === undefined
        ? nowMs + msUntilUtcMidnight(nowMs)
        : Math.floor((nowMs + retryAfterMs) / 1000) * 1000,
    );
    // svc's own words: the service's message says when it resets too, and the hint says it exactly.
    return { ok: false, error: new QuotaError('the daily write quota is used up', resetsAt) };
  }
  return { ok: false, error: new ApiError(status, body, { retryAfterSeconds, requestId, headers }) };
}

/** The `{error: {...}}` object of an error body, tolerant of unknown fields; undefined when absent. */
function errorBodyOf(value: unknown): ApiErrorBody | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const error = (value as { error?: unknown }).error;
  if (error === null || typeof error !== 'object') return undefined;
  const body: ApiErrorBody = { ...(error as Record<string, unknown>) };
  // Tolerate odd types: only strings are shown or branched on.
  for (const field of ['type', 'code', 'message', 'param'] as const) {
    if (body[field] !== undefined && typeof body[field] !== 'string') body[field] = String(body[field]);
  }
  return body;
}

function notJson(url: string, status: number, contentType: string | undefined): ProtocolError {
  const what = contentType ? contentType.split(';')[0].trim() : 'no content type';
  return new ProtocolError(
    `the service at ${url} answered HTTP ${status} with ${what}, not JSON; check --base-url`,
  );
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function parseDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** How a network failure bears on retrying: whether the request may have been sent. */
export interface NetworkFailure {
  error: NetworkError;
  /** The request may have reached the service, so repeating it may apply it twice. */
  sent: boolean;
  /** Retrying cannot help (a TLS certificate problem, a bad URL). */
  fatal: boolean;
}

/** Nothing left the machine, or the connection never opened: repeating is always safe. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const PLAIN_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'answer stalled',
  ETIMEDOUT: 'timed out',
};

/**
 * Classify a failure thrown by the HTTP stack, naming the host in the message, or the proxy
 * when the request went through one and it is the proxy that failed.
 */
export function classifyNetworkError(
  err: unknown,
  origin: string,
  proxy?: ProxyInUse,
  caSource?: string,
): NetworkFailure {
  const code = errorCode(err);
  if (proxy) {
    const failure = proxyFailure(err, code, origin, proxy);
    if (failure) return failure;
  }
  const certificate = certificateProblem(code, new URL(origin).host, caSource);
  if (certificate !== undefined) {
    // Nothing was sent (the handshake failed) and a retry meets the same certificate.
    return { error: new NetworkError(certificate, code, { cause: err }), sent: false, fatal: true };
  }
  const fatal = /CERT|TLS|SSL|ERR_INVALID_URL|UND_ERR_INVALID_ARG/i.test(code ?? '');
  const words = (code && PLAIN_WORDS[code]) || (err instanceof Error ? err.message : String(err));
  const message = `could not connect to ${origin} (${words})`;
  return {
    error: new NetworkError(
      NOT_SENT_CODES.has(code ?? '') ? message : `request to ${origin} failed (${words})`,
      code,
      {
        cause: err,
      },
    ),
    sent: !NOT_SENT_CODES.has(code ?? '') && !fatal,
    fatal,
  };
}

/** Certificates signed by a CA this machine does not trust (a private CA, the emulator's own). */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  // A CA of the same name, but not the one that signed it.
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * A certificate the TLS handshake refused, as one line naming the cause and the setting that
 * fixes it (SVC_CA_FILE, a profile's `ca_file`, NODE_EXTRA_CA_CERTS, the base URL); undefined
 * for any other failure.
 */
function certificateProblem(code: string | undefined, host: string, caSource?: string): string | undefined {
  if (code === undefined) return undefined;
  if (UNTRUSTED_CODES.has(code)) {
    return caSource
      ? `the certificate of ${host} is signed by a CA that ${caSource} does not hold (${code}); point it at the PEM file of the CA that signed it (an emulator started with --tls names its CA file)`
      : `the certificate of ${host} is signed by a CA this machine does not trust (${code}); set SVC_CA_FILE (or NODE_EXTRA_CA_CERTS) to that CA's PEM file (an emulator started with --tls names its CA file)`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `the certificate of ${host} is not made out to ${host} (${code}); use a base URL with a host name the certificate names (--base-url, SVC_BASE_URL or the profile's base_url)`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    const when = code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet';
    return `the certificate of ${host} ${when} (${code}); the service must renew it (SVC_CA_FILE cannot help), and check this machine's clock`;
  }
  return undefined;
}

/**
 * A failure of the proxy itself: it refused the tunnel (undici says "Proxy response (502) !==
 * 200 when HTTP Tunneling"), or could not be reached (every connect-level error is about the
 * proxy, since the proxy is what this machine connects to). Nothing reached the service.
 */
function proxyFailure(
  err: unknown,
  code: string | undefined,
  origin: string,
  proxy: ProxyInUse,
): NetworkFailure | undefined {
  const host = new URL(origin).host;
  const where = `the proxy ${proxy.url} (from ${proxy.variable})`;
  const status = /Proxy response \((\d+)\)/.exec(err instanceof Error ? err.message : '')?.[1];
  let message: string | undefined;
  if (status !== undefined) {
    message = `${where} refused to connect to ${host} (HTTP ${status}); check that the proxy lets this host through, or list ${host} in NO_PROXY to go direct`;
  } else if (NOT_SENT_CODES.has(code ?? '')) {
    message = `could not reach ${where} (${PLAIN_WORDS[code ?? ''] ?? code}); check ${proxy.variable}, or list ${host} in NO_PROXY to go direct`;
  }
  if (message === undefined) return undefined;
  return {
    error: new NetworkError(message, status ? 'PROXY_REFUSED' : code, { cause: err, proxy: true }),
    sent: false,
    fatal: false,
  };
}

/** The most specific `code` on an error or its causes (undici wraps the socket's). */
function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
