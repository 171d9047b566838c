/**
 * What a call of one operation of the endpoint table takes and gives, typed from the table:
 * its path's `{name}` segments, its query and body (the zod schemas' input), and its result
 * (the tolerant schema's output; for a list, one item). client.call sends it.
 */
import type { z } from 'zod';
import type { ApiOperation } from '../contract/operations.js';
import type { PagedList } from './paginate.js';
import type { PageInfo } from './types.js';

/** Each `{name}` segment of a path template, as a string (encoded when the path is filled). */
type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : unknown;

/** The query an operation takes, without the paging a crawl sets (`cursor`, `limit`). */
type QueryOf<O extends ApiOperation> = O extends { query: infer Q extends z.ZodType }
  ? { query?: Omit<z.input<Q>, 'cursor' | 'limit'> }
  : unknown;

/** The body a write takes. */
type BodyOf<O extends ApiOperation> = O extends { body: infer B extends z.ZodType }
  ? { body: z.input<B> }
  : unknown;

/** Options of any call. */
interface CallOptions {
  /** The logical write's key: generated once when absent, sent with every retry of this call. */
  idempotencyKey?: string;
  /** Stops the call (a write in flight still gets a short grace to land). */
  signal?: AbortSignal;
  /** Overrides the table's word on whether repeating after an ambiguous failure is safe. */
  repeatable?: boolean;
}

/** Options of a crawl of a paged list. */
interface CrawlOptions {
  /** Items in all (default: every item). */
  limit?: number | 'all';
  /** Most items per page (1 to 100, default 100). */
  pageSize?: number;
  /** Told about each page before its items are yielded. */
  onPage?: (page: PageInfo) => void;
  /** Yield each item as it came, checked against the result schema but not rebuilt by it. */
  asSent?: boolean;
  /** Ask for the next page while this one's items are checked and yielded. */
  readAhead?: boolean;
}

/** What a call of `O` takes: its path parameters, query, body and options. */
type CallParams<O extends ApiOperation> = PathParams<O['path']> &
  QueryOf<O> &
  BodyOf<O> &
  CallOptions &
  (O extends { paging: 'cursor' } ? CrawlOptions : unknown);

/** The arguments after the operation: the parameters, optional when none is required. */
export type CallArgs<O extends ApiOperation> =
  Record<string, never> extends CallParams<O> ? [params?: CallParams<O>] : [params: CallParams<O>];

/** One item (or the whole answer) as the client reads it. */
export type ResultOf<O extends ApiOperation> = O extends { result: infer R extends z.ZodType }
  ? z.output<R>
  : unknown;

/** The answer of one request of `O` as the client reads it: the items of a one-page list, else the answer. */
export type AnswerOf<O extends ApiOperation> = O extends { paging: 'one-page' } ? ResultOf<O>[] : ResultOf<O>;

/** What a call of `O` gives: a lazy crawl for a paged list, the items of a one-page list, else the answer. */
export type CallResult<O extends ApiOperation> = O extends { paging: 'cursor' }
  ? PagedList<ResultOf<O>>
  : O extends { paging: 'one-page' }
    ? Promise<ResultOf<O>[]>
    : Promise<ResultOf<O>>;

/** The parameters of a call as the client reads them, whatever the operation. */
export type AnyCallParams = Record<string, unknown> &
  CallOptions &
  CrawlOptions & { query?: Record<string, unknown>; body?: unknown };
