/** The shape of one operation of the API (src/contract/operations.ts lists them all). */
import type { z } from 'zod';
import type { Scope } from '../contract.js';

/** An HTTP method the API takes (HEAD is answered wherever GET is, as GET without a body). */
type ApiMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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
  /** Counts against the daily write quota when it succeeds with a live key. */
  quota?: true;
  /** What each `{name}` of the path holds. */
  params?: Readonly<Record<string, string>>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status: 201 for a create, 200 otherwise. */
  status: 200 | 201;
  response: z.ZodType;
  /** Error codes it answers beyond those every operation of its kind does, by status. */
  errors?: Readonly<Partial<Record<number, readonly string[]>>>;
}
