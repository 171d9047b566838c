/** The shape of one operation of the API (src/contract/operations.ts lists them all). */
import type { z } from 'zod';
import type { Scope } from '../contract.js';

/** An HTTP method the API takes (HEAD is answered wherever GET is, as GET without a body). */
type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** How a list answers: every page follows `next_cursor` (`cursor`), or everything comes in one page. */
type Paging = 'cursor' | 'one-page';

/** One operation of the API. */
export interface ApiOperation {
  /** The operationId, e.g. `listOrders`. */
  id: string;
  method: ApiMethod;
  /** Below /rest/v1, with `{name}` segments. */
  path: string;
  /** The group it is shown under. */
  tag: string;
  summary: string;
  description?: string;
  /** The scope it needs; null for the public operations, which need no key. */
  scope: Scope | null;
  /** Units of the daily write quota it spends when it succeeds with a live key (absent: none). */
  quota?: 1;
  /**
   * Whether sending it again after an ambiguous failure (the service may have applied it) is
   * safe: every read, a PATCH carrying its Idempotency-Key, an absolute write such as setting
   * inventory. When false, the client raises AmbiguousWriteError and the caller reads back first.
   */
  repeatable: boolean;
  /** For a list: how it pages (its answer is a `{ data: [...] }` envelope). */
  paging?: Paging;
  /** What each `{name}` of the path holds. */
  params?: Readonly<Record<string, string>>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status: 201 for a create, 200 otherwise. */
  status: 200 | 201;
  /** The answer exactly as the service documents it (the emulator answers it, docs/openapi.json shows it). */
  response: z.ZodType;
  /**
   * The answer as a client reads it, tolerant of unknown fields and values (for a list, one
   * item); absent for answers the client does not type.
   */
  result?: z.ZodType;
  /** Error codes it answers beyond those every operation of its kind does, by status. */
  errors?: Readonly<Partial<Record<number, readonly string[]>>>;
}

/** The facts of an operation a client sends it by. */
type RoutingFact = 'id' | 'method' | 'path' | 'scope' | 'quota' | 'repeatable' | 'paging';

/**
 * An operation as the client sends it, without a zod schema (src/contract/endpoints.ts, made
 * from the table at build): its routing facts and `passes`, the generated check of its result
 * schema. `operation` is never set: it carries the operation's type, for a call's parameters
 * and result.
 */
export type Endpoint<O extends ApiOperation = ApiOperation> = Pick<O, RoutingFact & keyof O> & {
  /** Whether an answer (for a list, one item) passes the result schema; zod says why not. */
  passes?: (value: unknown) => boolean;
  readonly operation?: O;
};

/** Keeps an operation's exact type (its path and schemas), so a client call is typed from it. */
export function defineOperations<const T extends Record<string, ApiOperation>>(operations: T): T {
  for (const [key, operation] of Object.entries(operations)) {
    if (operation.id !== key) throw new Error(`operation ${key} is filed as ${operation.id}`);
  }
  return operations;
}

/** A path template with each `{name}` replaced by its parameter, URL-encoded (ids and SKUs may hold any character). */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (typeof value !== 'string' || value === '') {
      throw new TypeError(`${template} needs ${name}: a non-empty string`);
    }
    return encodeURIComponent(value);
  });
}

/** `METHOD /filled/path` of a call, as dry runs and messages show it. */
export function requestLine(
  operation: Pick<ApiOperation, 'method' | 'path'>,
  params: Readonly<Record<string, unknown>> = {},
): string {
  return `${operation.method} ${fillPath(operation.path, params)}`;
}
