/** The one mapping from errors to exit codes and to one human line (docs/guide.md, Exit codes). */

import { DEFAULT_RETRY_POLICY } from '../client/retry.js';
import { ERROR_CODES } from '../contract/contract.js';
import {
  AmbiguousWriteError,
  ApiError,
  AuthError,
  CommandFailed,
  CrawlInterrupted,
  DifferencesFound,
  EXIT,
  FileError,
  FileIncomplete,
  Interrupted,
  NetworkError,
  PartialFailure,
  ProtocolError,
  QuotaError,
  RateLimitError,
  StillPending,
  SvcError,
  UsageError,
} from '../errors.js';
import { humanDuration } from '../output/duration.js';
import { plural } from '../words.js';
import { localFileProblem } from './file-errors.js';

export { EXIT };

/** What each exit code means, as `svc --help` lists them (docs/guide.md, Exit codes). */
export const EXIT_MEANINGS: readonly (readonly [string, string])[] = [
  ['0', 'done'],
  ['1', 'failed: an API or network error after retries'],
  ['2', 'usage or input error: bad flags, bad CSV or JSON; nothing was sent'],
  ['3', 'partly done: some items failed (the report names each)'],
  ['4', 'authentication or permission: 401, 403, or a key malformed before sending'],
  ['5', 'rate limit or daily write quota exhausted; resumable work saved its state'],
  ['6', 'inventory diff --exit-code: the file differs from the store'],
  ['8', 'still pending: operations wait or --wait ran out of --timeout'],
  ['130, 143', 'interrupted by SIGINT, SIGTERM'],
];

/** The exit code an error ends the run with. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CrawlInterrupted) return exitCodeFor(error.cause);
  // Each error kind knows its own code (src/errors.ts); a local file's failure is a usage error.
  if (error instanceof SvcError) return error.exitCode;
  return localFileProblem(error) ? EXIT.usage : EXIT.failed;
}

/** One line naming what failed and what to do next. */
export function describeError(error: unknown, now: number = Date.now()): string {
  const { message, hint } = explainError(error, now);
  return hint ? `${message}; ${hint}` : message;
}

/**
 * A message as one line: line breaks (commander's "(Did you mean …?)", a service's message)
 * and the blanks around them become one space, so a script reads each error from one line.
 */
export function oneLine(text: string): string {
  return text.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ').trim();
}

/** What failed, and apart from it (when known) what to do next; each one line. */
export function explainError(error: unknown, now: number = Date.now()): { message: string; hint?: string } {
  const { message, hint } = explainErrorAsWritten(error, now);
  return hint === undefined
    ? { message: oneLine(message) }
    : { message: oneLine(message), hint: oneLine(hint) };
}

function explainErrorAsWritten(error: unknown, now: number): { message: string; hint?: string } {
  if (error instanceof CrawlInterrupted) {
    const base = explainErrorAsWritten(error.cause, now);
    if (error.written === 0) return base;
    const stopped = ` (stopped after ${error.written} ${plural(error.written, 'item')})`;
    return base.hint ? { ...base, hint: `${base.hint}${stopped}` } : { message: `${base.message}${stopped}` };
  }
  if (error instanceof ApiError) return explainApiError(error);
  if (error instanceof QuotaError) {
    return {
      message: error.message,
      hint: `it resets at ${error.resetsAt.toISOString()} (in ${humanDuration(error.resetsAt.getTime() - now)})`,
    };
  }
  if (error instanceof RateLimitError) {
    const after = error.retryAfterSeconds;
    return {
      message: error.message,
      hint: `run again ${after ? `in ${humanDuration(after * 1000)}` : 'later'}`,
    };
  }
  if (error instanceof NetworkError && !error.proxy && error.code && UNREACHABLE_CODES.has(error.code)) {
    return {
      message: error.message,
      hint: "check the service address (--base-url, SVC_BASE_URL or the profile's) and the network",
    };
  }
  // Every other error svc raises on purpose already says what failed and what to do next.
  if (error instanceof SvcError) return { message: error.message };
  const local = localFileProblem(error);
  if (local) return { message: local };
  if (error instanceof Error)
    return { message: `unexpected error: ${error.message} (run again with --debug for details)` };
  return { message: `unexpected error: ${String(error)}` };
}

/** Connection failures where nothing reached the service: the address or the network is wrong. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function explainApiError(error: ApiError): { message: string; hint?: string } {
  const code = error.code ? ` ${error.code}` : '';
  // `param` helps with a bad field; on other answers the message already names the id.
  const param = error.param && (error.status === 400 || error.status === 422) ? ` (${error.param})` : '';
  const message = `HTTP ${error.status}${code}: ${error.message.replace(/\.$/, '')}${param}`;
  return { message, hint: apiHint(error) };
}

function apiHint(error: ApiError): string | undefined {
  // A 404 knows more from its request: no such route, a method the path does not take, or an unknown id.
  if (error.nextStep) return error.nextStep;
  switch (error.code) {
    case ERROR_CODES.apiKeyMissing:
    case ERROR_CODES.apiKeyInvalid:
      return 'check the key with `svc auth status` or log in again with `svc auth login`';
    case ERROR_CODES.scopeMissing:
      return 'use a key that has this scope';
    case ERROR_CODES.planNotEligible:
      return "the store's subscription is not live, renew it in the dashboard";
    case ERROR_CODES.rateLimitExceeded:
      return 'wait a moment and run again';
    case ERROR_CODES.resourceMissing:
      return 'check the id or the path';
    case ERROR_CODES.preconditionFailed:
      return 'it changed since that time: get it again, check the change, and send the new updated_at';
    case ERROR_CODES.idempotencyKeyReused:
      return 'an Idempotency-Key names one request: send a different request with a new key';
  }
  if (error.status === 400 && error.param === 'cursor')
    return 'cursors do not last: start the list again from its first page';
  if (error.status === 401) return 'check the key with `svc auth status`';
  if (error.status === 403) return 'use a key that is allowed to do this';
  // A wait the policy would not take was not a retry: the message already says so.
  const waitRefused = (error.retryAfterSeconds ?? 0) * 1000 > DEFAULT_RETRY_POLICY.maxRetryAfterMs;
  if (error.status >= 500 && !waitRefused)
    return 'the service failed, try again later (`svc status` shows its health)';
  return undefined;
}

/**
 * The stable `code` of an error for scripts (docs/guide.md, Errors for scripts); the service's own
 * code, when it sent one, is `service_code` beside it.
 */
export const ERROR_KINDS = [
  'usage',
  'input_invalid',
  'auth_missing',
  'auth_invalid',
  'scope_missing',
  'forbidden',
  'rate_limited',
  'quota_exhausted',
  'not_found',
  'conflict',
  'invalid_request',
  'partial_failure',
  'timeout',
  'interrupted',
  'network',
  'write_unconfirmed',
  'service',
  'check_failed',
  'file_incomplete',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** The stable code of `error`. */
export function errorKind(error: unknown): ErrorKind {
  if (error instanceof CrawlInterrupted) return errorKind(error.cause);
  if (error instanceof UsageError)
    return error.problems || error instanceof FileError ? 'input_invalid' : 'usage';
  if (localFileProblem(error)) return 'input_invalid';
  if (error instanceof AuthError) return authErrorKind(error.code);
  if (error instanceof QuotaError) return 'quota_exhausted';
  if (error instanceof RateLimitError) return 'rate_limited';
  if (error instanceof PartialFailure) return 'partial_failure';
  if (error instanceof StillPending) return 'timeout';
  if (error instanceof Interrupted) return 'interrupted';
  if (error instanceof AmbiguousWriteError) return 'write_unconfirmed';
  if (error instanceof NetworkError) return 'network';
  if (error instanceof ProtocolError) return 'service';
  if (error instanceof CommandFailed || error instanceof DifferencesFound) return 'check_failed';
  if (error instanceof FileIncomplete) return 'file_incomplete';
  if (error instanceof ApiError) return apiErrorKind(error);
  return 'internal';
}

/** A key refused before or by the service: the same code whichever check refused it. */
function authErrorKind(code: string | undefined): ErrorKind {
  if (code === ERROR_CODES.apiKeyMissing) return 'auth_missing';
  if (code === ERROR_CODES.scopeMissing) return 'scope_missing';
  if (code === ERROR_CODES.planNotEligible) return 'forbidden';
  return 'auth_invalid';
}

function apiErrorKind(error: ApiError): ErrorKind {
  if (error.status === 401) return 'auth_invalid';
  if (error.status === 403) return error.code === ERROR_CODES.scopeMissing ? 'scope_missing' : 'forbidden';
  if (error.status === 404) return 'not_found';
  if (error.status === 409 || error.status === 412) return 'conflict';
  if (error.status === 429) return 'rate_limited';
  if (error.status >= 500) return 'service';
  return 'invalid_request';
}

/** The `{"error": {...}}` form of an error, one line on stderr with any machine format. */
export function errorJson(error: unknown, now: number = Date.now()): { error: Record<string, unknown> } {
  const cause = error instanceof CrawlInterrupted ? error.cause : error;
  const { message, hint } = explainError(error, now);
  const body: Record<string, unknown> = { code: errorKind(error), message, exit_code: exitCodeFor(error) };
  if (cause instanceof ApiError) {
    body.status = cause.status;
    if (cause.requestId) body.request_id = cause.requestId;
    if (cause.code) body.service_code = cause.code;
    if (cause.param) body.param = cause.param;
  }
  if (hint) body.hint = hint;
  if ((cause instanceof AuthError || cause instanceof NetworkError) && cause.code)
    body.detail_code = cause.code;
  if (cause instanceof RateLimitError && cause.retryAfterSeconds) body.retry_after = cause.retryAfterSeconds;
  if (cause instanceof ApiError && cause.retryAfterSeconds) body.retry_after = cause.retryAfterSeconds;
  if (cause instanceof QuotaError) body.resets_at = cause.resetsAt.toISOString();
  // Every bad line of a file check, so a script sees them all, not the first 50.
  if (cause instanceof UsageError && cause.problems) body.problems = cause.problems;
  const position = (cause as { position?: unknown }).position;
  if (typeof position === 'number') body.position = position;
  if (error instanceof CrawlInterrupted) body.written = error.written;
  return { error: body };
}
