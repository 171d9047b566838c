/** The one mapping from errors to exit codes and to one human line (README, Exit codes). */
import { ERROR_CODES } from '../api/contract.js';
import { DEFAULT_RETRY_POLICY } from '../api/retry.js';
import {
  ApiError,
  AuthError,
  CrawlInterrupted,
  Interrupted,
  NetworkError,
  PartialFailure,
  QuotaError,
  RateLimitError,
  StillPending,
  SvcError,
  UsageError,
} from '../errors.js';
import { plural } from '../words.js';
import { localFileProblem } from './file-errors.js';

export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
  auth: 4,
  rateLimited: 5,
  pending: 8,
  sigint: 130,
  sigterm: 143,
} as const;

/** The exit code an error ends the run with. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CrawlInterrupted) return exitCodeFor(error.cause);
  if (error instanceof UsageError || localFileProblem(error)) return EXIT.usage;
  if (error instanceof AuthError) return EXIT.auth;
  if (error instanceof QuotaError || error instanceof RateLimitError) return EXIT.rateLimited;
  if (error instanceof PartialFailure) return EXIT.partial;
  if (error instanceof StillPending) return EXIT.pending;
  if (error instanceof Interrupted) return error.signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status === 429) return EXIT.rateLimited;
    return EXIT.failed;
  }
  return EXIT.failed;
}

/** One line naming what failed and what to do next. */
export function describeError(error: unknown, now: number = Date.now()): string {
  if (error instanceof CrawlInterrupted) {
    const base = describeError(error.cause, now);
    return error.written === 0
      ? base
      : `${base} (stopped after ${error.written} ${plural(error.written, 'item')})`;
  }
  if (error instanceof ApiError) return describeApiError(error);
  if (error instanceof QuotaError) {
    return `${error.message}; the daily write quota resets at ${error.resetsAt.toISOString()} (in ${humanDuration(error.resetsAt.getTime() - now)})`;
  }
  if (error instanceof RateLimitError) {
    const after = error.retryAfterSeconds;
    return `${error.message}; run again ${after ? `in ${humanDuration(after * 1000)}` : 'later'}`;
  }
  if (error instanceof NetworkError && error.code && UNREACHABLE_CODES.has(error.code)) {
    return `${error.message}; check the service address (--base-url, SVC_BASE_URL or the profile's) and the network`;
  }
  // Every other error svc raises on purpose already says what failed and what to do next.
  if (error instanceof SvcError) return error.message;
  const local = localFileProblem(error);
  if (local) return local;
  if (error instanceof Error)
    return `unexpected error: ${error.message} (run again with --debug for details)`;
  return `unexpected error: ${String(error)}`;
}

/** Connection failures where nothing reached the service: the address or the network is wrong. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function describeApiError(error: ApiError): string {
  const code = error.code ? ` ${error.code}` : '';
  // `param` helps with a bad field; on other answers the message already names the id.
  const param = error.param && (error.status === 400 || error.status === 422) ? ` (${error.param})` : '';
  const base = `HTTP ${error.status}${code}: ${error.message.replace(/\.$/, '')}${param}`;
  // A 404 knows more from its request: no such route, a method the path does not take, or an unknown id.
  if (error.nextStep) return `${base}; ${error.nextStep}`;
  switch (error.code) {
    case ERROR_CODES.apiKeyMissing:
    case ERROR_CODES.apiKeyInvalid:
      return `${base}; check the key with \`svc auth status\` or log in again with \`svc auth login\``;
    case ERROR_CODES.scopeMissing:
      return `${base}; use a key that has this scope`;
    case ERROR_CODES.planNotEligible:
      return `${base}; the store's subscription is not live, renew it in the dashboard`;
    case ERROR_CODES.rateLimitExceeded:
      return `${base}; wait a moment and run again`;
    case ERROR_CODES.resourceMissing:
      return `${base}; check the id or the path`;
    case ERROR_CODES.preconditionFailed:
      return `${base}; it changed since that time: get it again, check the change, and send the new updated_at`;
    case ERROR_CODES.idempotencyKeyReused:
      return `${base}; an Idempotency-Key names one request: send a different request with a new key`;
  }
  if (error.status === 400 && error.param === 'cursor')
    return `${base}; cursors do not last: start the list again from its first page`;
  if (error.status === 401) return `${base}; check the key with \`svc auth status\``;
  if (error.status === 403) return `${base}; use a key that is allowed to do this`;
  // A wait the policy would not take was not a retry: the message already says so.
  const waitRefused = (error.retryAfterSeconds ?? 0) * 1000 > DEFAULT_RETRY_POLICY.maxRetryAfterMs;
  if (error.status >= 500 && !waitRefused)
    return `${base}; the service failed, try again later (\`svc status\` shows its health)`;
  return base;
}

/** "3h 12m", "45s": a duration for people. */
export function humanDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** The `{"error": {...}}` form of an error, for --json on stderr. */
export function errorJson(error: unknown): { error: Record<string, unknown> } {
  const cause = error instanceof CrawlInterrupted ? error.cause : error;
  if (cause instanceof ApiError) return cause.toJSON();
  const body: Record<string, unknown> = {
    type: cause instanceof Error ? cause.name : 'Error',
    message: describeError(error),
  };
  if (cause instanceof AuthError || cause instanceof NetworkError) body.code = cause.code;
  // Every bad line of a file check, so a script sees them all, not the first 50.
  if (cause instanceof UsageError && cause.problems) body.problems = cause.problems;
  if (error instanceof CrawlInterrupted) body.written = error.written;
  return { error: body };
}
