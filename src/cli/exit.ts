/** The one mapping from errors to exit codes and to one human line (docs/guide.md, Exit codes). */

import { DEFAULT_RETRY_POLICY } from '../client/retry.js';
import { ERROR_CODES } from '../contract/contract.js';
import {
  ApiError,
  CrawlInterrupted,
  EXIT,
  NetworkError,
  QuotaError,
  RateLimitError,
  SvcError,
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
