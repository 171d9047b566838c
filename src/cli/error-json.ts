/** The error as one JSON line for scripts (docs/guide.md, Errors for scripts): its stable code, message and details. */

import { ERROR_CODES } from '../contract/contract.js';
import {
  AmbiguousWriteError,
  ApiError,
  AuthError,
  CommandFailed,
  CrawlInterrupted,
  DifferencesFound,
  FileError,
  FileIncomplete,
  Interrupted,
  NetworkError,
  PartialFailure,
  ProtocolError,
  QuotaError,
  RateLimitError,
  StillPending,
  UsageError,
} from '../errors.js';
import { exitCodeFor, explainError } from './exit.js';
import { localFileProblem } from './file-errors.js';

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
type ErrorKind = (typeof ERROR_KINDS)[number];

/** The stable code of `error`. */
function errorKind(error: unknown): ErrorKind {
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
