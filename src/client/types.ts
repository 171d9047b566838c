/** The shapes shared by the transport, the pager and the resources. */
import type { PacingUrl } from './pacing/pacing-url.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type QueryValue = string | number | boolean | undefined | null;

/** One logical request; the transport may send it several times (retries). */
export interface RequestSpec {
  method: HttpMethod;
  /** Relative to `{base_url}/rest/v1`, e.g. `/orders/ord_1`; path parameters already encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialisable body; sent as application/json. */
  body?: unknown;
  /** A JSON body already written, sent byte for byte as application/json (`svc api --input`); wins over `body`. */
  jsonBytes?: Uint8Array;
  /** False for the unauthenticated endpoints (`/status`, `/health`). Default true. */
  auth?: boolean;
  /**
   * For writes: true when repeating after an ambiguous failure is safe (a PATCH carrying its
   * Idempotency-Key, an absolute write such as setting inventory). When false, an ambiguous
   * failure raises AmbiguousWriteError for the use-case to read back first.
   * Default: true for GET, PUT and PATCH; false for POST and DELETE.
   */
  repeatable?: boolean;
  /** The logical write's key; generated once when absent and reused across every retry. */
  idempotencyKey?: string;
  /** Extra request headers (`svc api -H`); never Authorization, which the key alone sets. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** An answer as the transport hands it up: any 2xx, parsed JSON body. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
  /** The service's clock, from its `Date` header, when present. */
  serverDate?: Date;
}

/** What a list crawl learns from one page beyond its items. */
export interface PageInfo {
  /** The service's clock from this page's Date header, when present. */
  serverDate?: Date;
  /** Items on the page. */
  count: number;
  hasMore: boolean;
}

/** A page of a list endpoint. */
export interface ListEnvelope<T> {
  object?: string;
  data: T[];
  has_more?: boolean;
  next_cursor?: string | null;
  /** Reads one item of `data` as it is yielded (a crawl reading ahead checks items while the next page comes). */
  read?: (item: T, index: number) => T;
}

/** Settings of one client, resolved by the CLI from flags, environment and profile. */
export interface ClientOptions {
  /** The part before `/rest/v1`. */
  baseUrl: string;
  apiKey?: string;
  /** Retries of one request for network errors and 5xx (429 pacing waits do not count). */
  maxRetries?: number;
  userAgent?: string;
  /** Receives one line per request and answer, secrets redacted; absent unless --debug. */
  debug?: (line: string) => void;
  /** Receives a short human note when the transport waits or retries (for stderr). */
  notice?: (line: string) => void;
  connectTimeoutMs?: number;
  /**
   * PEM text of CA certificates to trust for the service besides the system's (SVC_CA_FILE or a
   * profile's `ca_file`), and where it came from, for the message when a certificate is refused.
   */
  ca?: { pem: string; source: string };
  /**
   * The deadline of one attempt, from sending to the answer's last byte (default 30 s; also
   * the most its headers may take). An expired deadline is a network error, retried as one.
   */
  requestTimeoutMs?: number;
  /**
   * Once aborted (SIGINT, SIGTERM), no attempt starts and no retry waits; an attempt in flight
   * still has `stopGraceMs` to land, so a write the service applied is also known as applied.
   */
  stopSignal?: AbortSignal;
  /** See stopSignal (default 2 s). */
  stopGraceMs?: number;
  /**
   * The default signal of list crawls: a read may stop at once on Ctrl-C (a write is never
   * cut off in flight; bulk commands stop between requests instead).
   */
  crawlSignal?: AbortSignal;
  /**
   * What the `svc` processes using the same key and base URL share, in `dir` (below the config
   * dir): the count of the write quota spent (quota-tally.ts) and, unless `pacing` is false,
   * the key's pacing (a state file for this machine, record-file.ts); with `url`, both through
   * that Redis for every machine (redis-store.ts). Absent: this process paces alone and counts nothing.
   */
  sharedPacing?: { dir: string; quotaDir?: string; pacing?: boolean; url?: PacingUrl };
  /** Receives a warning for stderr (Redis lost: said once). */
  warning?: (line: string) => void;
  /** The environment whose HTTPS_PROXY, HTTP_PROXY and NO_PROXY route requests (default: the process's). */
  env?: NodeJS.ProcessEnv;
  /** Injectable for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}
