/**
 * The error kinds every layer raises. Their mapping to exit codes and to one human line
 * lives once, in src/cli/exit.ts.
 */

/**
 * Every error svc raises on purpose: its message is the line a person reads (what failed and
 * what to do next). Anything that is not one is unexpected, and is said so.
 */
export class SvcError extends Error {
  /** The HTTP status of the service's answer, when the service refused. */
  declare readonly status?: number;
  /** A stable code: the service's error code, or svc's own (`api_key_missing`, a network error's code). */
  declare readonly code?: string;
  /** The service's error type (`invalid_request_error`, …). */
  declare readonly type?: string;
  /** The service's id of the refused request, to quote to its support. */
  declare readonly requestId?: string;
  declare readonly retryAfterSeconds?: number;

  /** Seconds the service asked to wait before trying again (429, 503), when it said. */
  get retryAfter(): number | undefined {
    return this.retryAfterSeconds;
  }

  /** The exit code `svc` ends a run with on this error (docs/guide.md, Exit codes). */
  get exitCode(): number {
    return EXIT.failed;
  }
}

/** The exit codes of svc (docs/guide.md, Exit codes). */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
  auth: 4,
  rateLimited: 5,
  differs: 6,
  pending: 8,
  sigint: 130,
  sigterm: 143,
} as const;

/** One bad line of an input file: where, the item's key when known, a stable code, and why. */
export interface InputProblem {
  /** Physical line (header = 1). */
  line: number;
  key?: string;
  code?: string;
  message: string;
}

/** Bad flags or bad input found before anything was sent (exit 2). */
export class UsageError extends SvcError {
  override name = 'UsageError';
  override get exitCode(): number {
    return EXIT.usage;
  }
  /** Extra lines shown under the message (e.g. the first bad CSV lines). */
  details: string[];
  /** Every bad line of a file that failed its check, for --report and the JSON error. */
  problems?: InputProblem[];
  /** The file whose lines `problems` are, as the command line named it (CI annotations point there). */
  inputFile?: string;
  /** The --report that lists every bad line, once written. */
  reportFile?: string;
  constructor(message: string, details: string[] = [], problems?: InputProblem[]) {
    super(message);
    this.details = details;
    this.problems = problems;
  }
}

/** A local file that cannot be read or written (missing, a directory, no permission): exit 2, code `input_invalid`. */
export class FileError extends UsageError {
  override name = 'FileError';
}

/** The body of an error answer, tolerant of fields and codes we do not know. */
export interface ApiErrorBody {
  type?: string;
  code?: string;
  message?: string;
  param?: string;
  [extra: string]: unknown;
}

/**
 * A file svc promised to write (report, backup, saved shipments, export, journal) that could
 * not be written whole: a full disk, a reader gone (exit 1). The message names the file, says
 * it is incomplete, and why.
 */
export class FileIncomplete extends SvcError {
  override name = 'FileIncomplete';
  /** `what` ("the report") at `path` could not be written whole because of `cause`. */
  static of(what: string, path: string, cause: unknown): FileIncomplete {
    return new FileIncomplete(
      `${what} ${path} is incomplete: ${writeFailureReason(cause)}; free space or choose another path, then run again`,
    );
  }
}

/** A write that failed for want of room or a working device (not a path to fix): FileIncomplete's kind. */
export function isShortWrite(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' || code === 'EIO' || code === 'EPIPE';
}

const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file grew past the largest size allowed',
  EPIPE: 'its reader went away',
  EIO: 'an input/output error of the device',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
};

/** Why a write failed, in words ("no space left on the device"), not an errno. */
export function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && code in WRITE_FAILURES) return WRITE_FAILURES[code];
  return error instanceof Error ? error.message : String(error);
}

/** The service refused a request: status, type, code, message and param as it sent them. */
export class ApiError extends SvcError {
  override name = 'ApiError';
  override get exitCode(): number {
    if (this.status === 401 || this.status === 403) return EXIT.auth;
    return this.status === 429 ? EXIT.rateLimited : EXIT.failed;
  }
  override readonly status: number;
  override readonly type?: string;
  override readonly code?: string;
  readonly param?: string;
  override readonly retryAfterSeconds?: number;
  override readonly requestId?: string;
  /** The answer's headers (names in lower case), for `svc api --include`. */
  readonly headers?: Record<string, string>;
  /** What to do next, when the request it answered tells more than the code (a 404's route). */
  nextStep?: string;
  constructor(
    status: number,
    body: ApiErrorBody,
    extra: { retryAfterSeconds?: number; requestId?: string; headers?: Record<string, string> } = {},
  ) {
    super(body.message || `the service answered HTTP ${status}`);
    this.status = status;
    this.type = body.type;
    this.code = body.code;
    this.param = body.param;
    this.retryAfterSeconds = extra.retryAfterSeconds;
    this.requestId = extra.requestId;
    this.headers = extra.headers;
  }
  /** The error as `{error: {...}}`, for `--json` on stderr. */
  toJSON(): { error: ApiErrorBody & { status: number } } {
    return {
      error: {
        status: this.status,
        type: this.type,
        code: this.code,
        message: this.message,
        param: this.param,
      },
    };
  }
}

/** The code of an AuthError for a key refused before sending because it is not shaped like one. */
export const KEY_MALFORMED = 'api_key_malformed';

/** No usable key, a malformed key (refused before sending), 401 or 403 (exit 4). */
export class AuthError extends SvcError {
  override name = 'AuthError';
  override get exitCode(): number {
    return EXIT.auth;
  }
  override readonly code?: string;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

/** 429 `rate_limit_exceeded` after waits were exhausted (exit 5). */
export class RateLimitError extends SvcError {
  override name = 'RateLimitError';
  override get exitCode(): number {
    return EXIT.rateLimited;
  }
  override readonly retryAfterSeconds?: number;
  constructor(message: string, retryAfterSeconds?: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** 429 `write_quota_exceeded`: never waited for (exit 5). */
export class QuotaError extends SvcError {
  override name = 'QuotaError';
  override get exitCode(): number {
    return EXIT.rateLimited;
  }
  /** When the quota resets (next 00:00 UTC). */
  readonly resetsAt: Date;
  constructor(message: string, resetsAt: Date) {
    super(message);
    this.resetsAt = resetsAt;
  }
}

/** The network failed (refused, reset, timed out, DNS) after retries (exit 1). */
export class NetworkError extends SvcError {
  override name = 'NetworkError';
  override readonly code?: string;
  /** The proxy failed, not the way to the service: the message says what to check. */
  readonly proxy: boolean;
  constructor(message: string, code?: string, options?: { cause?: unknown; proxy?: boolean }) {
    super(message, options);
    this.code = code;
    this.proxy = options?.proxy ?? false;
  }
}

/**
 * A write that is not safe to repeat failed in a way that leaves it unknown whether the
 * service applied it (connection dropped after sending). The use-case reads back first.
 */
export class AmbiguousWriteError extends SvcError {
  override name = 'AmbiguousWriteError';
  /** Said as such, never guessed: read the resource back before trying again. */
  override readonly code = 'ambiguous_write';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The answer was not what the contract says (not JSON, wrong shape). */
export class ProtocolError extends SvcError {
  override name = 'ProtocolError';
}

/** Some items of a bulk command failed (exit 3); the report names each. */
export class PartialFailure extends SvcError {
  override name = 'PartialFailure';
  override get exitCode(): number {
    return EXIT.partial;
  }
  /** The first failed items, one line each, shown under the message. */
  details: string[];
  constructor(message: string, details: string[] = []) {
    super(message);
    this.details = details;
  }
}

/** `operations wait` or `--wait` ran out of time with work still pending (exit 8). */
export class StillPending extends SvcError {
  override name = 'StillPending';
  override get exitCode(): number {
    return EXIT.pending;
  }
}

/** Interrupted by a signal (exit 130 for SIGINT, 143 for SIGTERM). */
export class Interrupted extends SvcError {
  override name = 'Interrupted';
  override get exitCode(): number {
    return this.signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
  }
  readonly signal: 'SIGINT' | 'SIGTERM';
  constructor(signal: 'SIGINT' | 'SIGTERM', message = `interrupted by ${signal}`) {
    super(message);
    this.signal = signal;
  }
}

/** The command ran, but what it checked or delivered came out negative (exit 1), e.g. a signature that does not verify. */
export class CommandFailed extends SvcError {
  override name = 'CommandFailed';
}

/** A crawl that failed midway, after `written` items reached stdout; the failure is its cause. */
export class CrawlInterrupted extends SvcError {
  override name = 'CrawlInterrupted';
  override get exitCode(): number {
    return this.cause instanceof SvcError ? this.cause.exitCode : EXIT.failed;
  }
  readonly written: number;
  override readonly cause: unknown;
  constructor(written: number, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.written = written;
    this.cause = cause;
  }
}

/**
 * An answer, not a failure: `inventory diff --exit-code` found differences (exit 6, kept apart
 * from 1, "could not compare", as `terraform plan -detailed-exitcode` does). Said as a note,
 * never as an error.
 */
export class DifferencesFound extends SvcError {
  override name = 'DifferencesFound';
  override get exitCode(): number {
    return EXIT.differs;
  }
}
