/**
 * The typed entry point the resources use: one request, or one list crawled through the
 * shared pager, answers checked against the (tolerant) zod schemas.
 */
import type { ZodType } from 'zod';
import { LIST_ORDER, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../contract/contract.js';
import { fillPath } from '../contract/operations/operation.js';
import type { ApiOperation, Endpoint } from '../contract/operations.js';
import { notFoundAdvice } from '../contract/routes.js';
import { ApiError, ProtocolError } from '../errors.js';
import type { AnswerOf, AnyCallParams, CallArgs, CallResult } from './call.js';
import type { PacerSnapshot } from './pacing/pacer.js';
import type { QuotaReading } from './pacing/quota-tally.js';
import { PagedList } from './paginate.js';
import { Transport, type TransportOptions, type TransportStats } from './transport.js';
import type { ApiResponse, ListEnvelope, PageInfo, QueryValue, RequestSpec } from './types.js';

export type { PageInfo } from './types.js';

/** How much of a list to crawl: a number of items in all, or every item. */
export interface ListOptions {
  limit: number | 'all';
  /** Most items per page (1 to 100, default 100); a `limit` in the query sets it too, as gh's per_page. */
  pageSize?: number;
  signal?: AbortSignal;
  /** Told about each page before its items are yielded (incremental exports need each page's server clock). */
  onPage?: (page: PageInfo) => void;
  /** Yield each item as it came once checked by the schema (unknown fields and key order kept). */
  asSent?: boolean;
  /** Ask for the next page while this one's items are checked and yielded (paginate's readAhead). */
  readAhead?: boolean;
}

/** Counters of one client, for bulk summaries and benchmarks. */
export type ClientStats = TransportStats;

/** A client of the service, built from resolved settings; close() it when done. */
export class ApiClient {
  readonly transport: Transport;
  /** The service's clock from the latest answer's Date header. */
  lastServerDate?: Date;

  private readonly crawlSignal?: AbortSignal;

  constructor(options: TransportOptions) {
    this.transport = new Transport(options);
    this.crawlSignal = options.crawlSignal;
  }

  /**
   * Calls one operation of the endpoint table (src/contract/endpoints.ts, the table without
   * its zod schemas): fills its path, sends its query and body with its repeat rule and auth,
   * and reads the answer with its tolerant schema (the generated check; zod, loaded then, says
   * what fails). A paged list gives a lazy crawl through the shared pager; a one-page list
   * gives its items.
   */
  call<O extends ApiOperation>(operation: Endpoint<O>, ...[params]: CallArgs<O>): CallResult<O> {
    const given = (params ?? {}) as AnyCallParams;
    if (operation.paging === 'cursor') return this.crawl(operation, given) as CallResult<O>;
    return this.callForAnswer(operation, given).then((answer) => answer.body) as CallResult<O>;
  }

  /** As call() for one request, with the whole answer (status, headers, the service's clock). */
  async callForAnswer<O extends ApiOperation>(
    operation: Endpoint<O>,
    params: AnyCallParams,
  ): Promise<ApiResponse<AnswerOf<O>>> {
    const spec = specOf(operation, params);
    const { body, serverDate, headers, status } = await this.request(spec);
    const what = `${spec.method} ${spec.path}`;
    const { passes } = operation;
    const items = operation.paging === 'one-page' ? asEnvelope(body, what).data : undefined;
    const schema = (items ?? [body]).every((value) => passes?.(value))
      ? undefined
      : await resultSchemaOf(operation);
    const read = (value: unknown, prefix: string) =>
      schema ? check(schema, value, what, prefix, passes) : value;
    const answer = items ? items.map((item, index) => read(item, `data[${index}]`)) : read(body, '');
    return { status, headers, serverDate, body: answer as AnswerOf<O> };
  }

  private crawl(operation: Endpoint, params: AnyCallParams): PagedList<unknown> {
    const path = fillPath(operation.path, params);
    const { limit = 'all', pageSize, onPage, signal, asSent, readAhead } = params;
    const query = params.query as Record<string, QueryValue> | undefined;
    const options = { limit, pageSize, onPage, signal, asSent, readAhead };
    return this.listRead(
      path,
      query,
      { passes: operation.passes, schema: () => resultSchemaOf(operation) },
      options,
    );
  }

  /** Sends one request; with a schema the body is checked and typed, a mismatch is a ProtocolError. */
  async request<T = unknown>(spec: RequestSpec, schema?: ZodType<T>): Promise<ApiResponse<T>> {
    const response = await this.transport.send(spec).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404)
        error.nextStep ??= notFoundAdvice(spec.method, spec.path, error.param);
      throw error;
    });
    if (response.serverDate) this.lastServerDate = response.serverDate;
    if (!schema) return response as ApiResponse<T>;
    return { ...response, body: check(schema, response.body, `${spec.method} ${spec.path}`) };
  }

  /**
   * The items of a list endpoint, page by page (pages ask limit=min(100, left)); after a
   * crawl, the list's `hasMore` says whether the service held more than the limit let through.
   */
  list<T = unknown>(
    path: string,
    query: Record<string, QueryValue> | undefined,
    schema: ZodType<T> | undefined,
    options: ListOptions,
  ): PagedList<T> {
    return this.listRead(path, query, schema && { schema: async () => schema }, options);
  }

  /** As list(), each page's items read by `reading` (the generated check first, when there is one). */
  private listRead<T>(
    path: string,
    query: Record<string, QueryValue> | undefined,
    reading: Reading | undefined,
    options: ListOptions,
  ): PagedList<T> {
    const method = 'GET';
    const what = `${method} ${path}`;
    const { limit: pageSizeInQuery, ...filters } = query ?? {};
    const pageSize = options.pageSize ?? pageSizeOf(pageSizeInQuery);
    const fetchPage = async (cursor: string | undefined, pageLimit: number): Promise<ListEnvelope<T>> => {
      const { body, serverDate } = await this.request({
        method,
        path,
        query: { ...filters, limit: pageLimit, cursor },
        signal: options.signal ?? this.crawlSignal,
      });
      const envelope = asEnvelope(body, what);
      options.onPage?.({
        serverDate,
        count: envelope.data.length,
        hasMore: envelope.has_more !== false && Boolean(envelope.next_cursor),
      });
      // A page whose every item passes its generated check is read as it came; zod is loaded
      // for a page with one that does not, and names what fails when the crawl reaches it.
      const passes = reading?.passes;
      const schema = passes && envelope.data.every(passes) ? undefined : await reading?.schema();
      if (!schema) return envelope as ListEnvelope<T>;
      const read = (item: unknown, index: number): T => {
        const checked = check(schema, item, what, `data[${index}]`, passes) as T;
        return options.asSent ? (item as T) : checked;
      };
      if (options.readAhead)
        return { ...(envelope as ListEnvelope<T>), read: read as (item: T, index: number) => T };
      return { ...envelope, read: undefined, data: envelope.data.map(read) };
    };
    return new PagedList(fetchPage, {
      limit: options.limit === 'all' ? undefined : options.limit,
      pageSize,
      readAhead: options.readAhead,
      orderedBy: Object.hasOwn(LIST_ORDER, path) ? LIST_ORDER[path] : undefined,
    });
  }

  /**
   * True when the key is a live one: its writes change the store and reach the channels. A
   * test key's writes are validated and simulated.
   */
  get live(): boolean {
    return this.transport.keyMode === 'live';
  }

  /** Requests, retries, 429s and waits so far. */
  get stats(): ClientStats {
    return this.transport.stats;
  }

  /** What the pacer believes about the rate limit now. */
  pacing(): PacerSnapshot {
    return this.transport.pacer.snapshot();
  }

  /**
   * What svc counted of the daily write quota it spent on this key today (its own count: the
   * service sends none); undefined when it keeps none (a client without a config dir).
   */
  quotaSpent(): Promise<QuotaReading | undefined> {
    return this.transport.quotaSpent();
  }

  /** Releases the keep-alive connections. */
  close(): Promise<void> {
    return this.transport.close();
  }
}

/** The request of one call of an operation. */
function specOf(operation: Endpoint, params: AnyCallParams): RequestSpec {
  return {
    method: operation.method,
    path: fillPath(operation.path, params),
    query: params.query as Record<string, QueryValue> | undefined,
    body: params.body,
    auth: operation.scope !== null,
    repeatable: params.repeatable ?? operation.repeatable,
    idempotencyKey: params.idempotencyKey,
    signal: params.signal,
  };
}

function pageSizeOf(value: QueryValue): number | undefined {
  const size = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < PAGE_LIMIT_MIN || size > PAGE_LIMIT_MAX) {
    return undefined;
  }
  return size;
}

function asEnvelope(body: unknown, what: string): ListEnvelope<unknown> {
  const data = (body as { data?: unknown } | undefined)?.data;
  if (body === null || typeof body !== 'object' || !Array.isArray(data)) {
    throw new ProtocolError(`unexpected answer to ${what}: expected a list with a "data" array`);
  }
  const envelope = body as ListEnvelope<unknown>;
  const cursor = envelope.next_cursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') {
    throw new ProtocolError(`unexpected answer to ${what}: next_cursor is not a string`);
  }
  return envelope;
}

/** Whether an answer passes its operation's result schema: the generated check, without zod. */
type AnswerCheck = (value: unknown) => boolean;

/** How a list's items are read: the generated check, and the zod schema loaded when it says no. */
interface Reading {
  passes?: AnswerCheck;
  schema: () => Promise<ZodType | undefined>;
}

/**
 * The zod schema of an operation's result (for a list, one item), read from the endpoint table:
 * loaded (with zod and every schema) the first time a generated check says no.
 */
async function resultSchemaOf(operation: Endpoint | ApiOperation): Promise<ZodType | undefined> {
  if ('result' in operation) return operation.result;
  const { OPERATIONS } = await import('../contract/operations.js');
  return Object.hasOwn(OPERATIONS, operation.id)
    ? (OPERATIONS as Readonly<Record<string, ApiOperation>>)[operation.id]?.result
    : undefined;
}

/**
 * The value as a tolerant schema reads it, or a ProtocolError naming the first field that
 * failed. A value its generated check passes is the schema's reading as it came (zod would
 * rebuild it with the same fields and values): zod is asked only otherwise, for the field.
 */
function check<T>(schema: ZodType<T>, value: unknown, what: string, prefix = '', passes?: AnswerCheck): T {
  if (passes?.(value)) return value as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = formatPath(prefix, issue?.path ?? []);
  throw new ProtocolError(
    `unexpected answer to ${what}: ${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}; check --base-url, or see the whole answer with --debug`,
  );
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let text = prefix;
  for (const part of path) {
    text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  }
  return text;
}
