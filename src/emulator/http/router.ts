/** Method and path pattern to handler; the request and response shapes handlers work with. */
import type { Scope } from '../../contract/contract.js';
import type { Store } from '../store/store.js';
import type { ApiKeyRecord } from './auth.js';

/** A request as a handler sees it, after authentication and every core check. */
export interface EmulatorRequest {
  method: string;
  /** Path below /rest/v1, as sent (still URL-encoded). */
  path: string;
  /** Path parameters, URL-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; `{}` when the request had none. */
  body: unknown;
  /** The caller's key; null on routes that need no authentication. */
  key: ApiKeyRecord | null;
}

/** What a handler answers. */
export interface EmulatorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A route's work: read or change the store, answer; throw HttpError for an error answer. */
export type Handler = (store: Store, request: EmulatorRequest) => EmulatorResponse;

/** One entry of the route table. */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path below /rest/v1 with `{name}` segments, e.g. `/inventory/{sku}`. */
  pattern: string;
  /** The scope it needs; null for the unauthenticated routes. */
  scope: Scope | null;
  /** True for writes that count against the daily write quota when they succeed. */
  quota?: boolean;
  handler: Handler;
}

/** A route found for a request, with its decoded parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: Route;
  segments: { literal?: string; param?: string }[];
}

/** Finds the route of a method and path. */
export class Router {
  private readonly compiled: CompiledRoute[];

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => ({
      route,
      segments: splitPath(route.pattern).map((segment) => {
        const param = /^\{(\w+)\}$/.exec(segment)?.[1];
        return param ? { param } : { literal: segment };
      }),
    }));
  }

  /** The route for `method` and `path` (below /rest/v1, URL-encoded), if any. */
  match(method: string, path: string): RouteMatch | undefined {
    // Split before decoding, so an encoded slash in a SKU stays inside its segment.
    const parts = splitPath(path);
    for (const { route, segments } of this.compiled) {
      if (route.method !== method || segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let matched = true;
      for (let index = 0; index < segments.length && matched; index++) {
        const segment = segments[index];
        if (segment.literal !== undefined) {
          matched = segment.literal === parts[index];
          continue;
        }
        const decoded = safeDecode(parts[index]);
        if (decoded === undefined || decoded === '') matched = false;
        else params[segment.param as string] = decoded;
      }
      if (matched) return { route, params };
    }
    return undefined;
  }

  /** Whether a route with this method and pattern exists. */
  has(method: string, pattern: string): boolean {
    return this.compiled.some(({ route }) => route.method === method && route.pattern === pattern);
  }
}

function splitPath(path: string): string[] {
  return path
    .split('/')
    .filter((segment, index, all) => segment !== '' || (index > 0 && index < all.length - 1));
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
