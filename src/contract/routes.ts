/**
 * The routes of the API as the contract pins them (below /rest/v1), so that a 404 can be
 * told apart: a path the API does not have, a method the path does not take, or an id that
 * does not exist (and which list shows the valid ones).
 */

// The table without its zod schemas: a request's quota cost and a 404's advice need no zod.
import { ENDPOINT_LIST } from './endpoints.js';
import type { Endpoint } from './operations.js';

/** One path pattern, the methods it takes and, for a path with an id, the command that lists valid ids. */
interface ApiRoute {
  pattern: string;
  methods: readonly string[];
  lister?: string;
}

/** The command that lists the valid ids of a collection, by the collection's name (a path's first segment). */
const LISTERS_OF_COLLECTIONS: Readonly<Record<string, string>> = {
  products: 'svc products list',
  listings: 'svc listings list',
  orders: 'svc orders list',
  operations: 'svc operations list',
  channel_accounts: 'svc channels list',
  webhook_endpoints: 'svc webhooks list',
};

/** The command that lists valid values of a path parameter other than a collection's `{id}`. */
const LISTERS_OF_PARAMS: Readonly<Record<string, string>> = {
  sku: 'svc inventory export',
  category_id: 'svc channels categories ID',
};

/** The routes of the endpoint table: each path once, with the methods its operations take. */
const API_ROUTES: readonly ApiRoute[] = routesOf(ENDPOINT_LIST);

function routesOf(operations: readonly Endpoint[]): ApiRoute[] {
  const byPattern = new Map<string, string[]>();
  for (const { path, method } of operations) byPattern.set(path, [...(byPattern.get(path) ?? []), method]);
  return [...byPattern].map(([pattern, methods]) => {
    const lister = listerOf(pattern);
    return lister ? { pattern, methods, lister } : { pattern, methods };
  });
}

/** The command that lists valid values of the last `{name}` of a pattern, if it has one. */
function listerOf(pattern: string): string | undefined {
  const param = [...pattern.matchAll(/\{(\w+)\}/g)].at(-1)?.[1];
  if (param === undefined) return undefined;
  return LISTERS_OF_PARAMS[param] ?? LISTERS_OF_COLLECTIONS[splitPath(pattern)[0] ?? ''];
}

/** The operation of the table that `method path` (below /rest/v1, a query allowed) calls, if any. */
export function operationAt(method: string, path: string): Endpoint | undefined {
  const segments = splitPath(path);
  const verb = method.toUpperCase();
  // The fewest placeholders first: a fixed segment beats a {param} that would fit it too.
  return OPERATION_PATTERNS.find(
    ({ operation, pattern }) => operation.method === verb && fits(pattern, segments),
  )?.operation;
}

/** Every operation with its path split once (each request asks which operation it is, for its quota cost). */
const OPERATION_PATTERNS = ENDPOINT_LIST.map((operation) => ({
  operation,
  pattern: splitPath(operation.path),
  holes: placeholders(operation.path),
})).sort((a, b) => a.holes - b.holes);

/**
 * Whether a request to `method path` needs a key: every operation does but the public ones
 * (`GET /status`); another method to a public path is sent without one too (the service
 * answers which methods the path takes).
 */
export function needsKey(method: string, path: string): boolean {
  const match = matchRoute(method, path);
  if (match.kind === 'none') return true;
  const pattern = match.route.pattern;
  return ENDPOINT_LIST.some((operation) => operation.path === pattern && operation.scope !== null);
}

/** The command that lists valid values of an id a request body or query names. */
const LISTERS_OF_FIELDS: Readonly<Record<string, string>> = {
  product_id: 'svc products list',
  channel_account_id: 'svc channels list',
  listing_id: 'svc listings list',
  order_id: 'svc orders list',
  sku: 'svc inventory export',
};

/** How a method and path stand against the routes. */
export type RouteMatch =
  | { kind: 'route'; route: ApiRoute }
  | { kind: 'method'; route: ApiRoute }
  | { kind: 'none' };

/**
 * The route `method path` is (a literal segment wins over an id, so `/products/batch` is
 * the batch route); `method` when the path exists but does not take that method.
 */
export function matchRoute(method: string, path: string): RouteMatch {
  const segments = splitPath(path);
  const candidates = API_ROUTES.filter((route) => fits(splitPath(route.pattern), segments)).sort(
    (a, b) => placeholders(a.pattern) - placeholders(b.pattern),
  );
  const exact = candidates.find((route) => route.methods.includes(method.toUpperCase()));
  if (exact) return { kind: 'route', route: exact };
  return candidates.length > 0 ? { kind: 'method', route: candidates[0] } : { kind: 'none' };
}

/**
 * What to do about a 404 to `method path`: the route does not exist, takes other methods, the
 * id in the path is unknown, or (`param`) an id the request's body or query names is.
 */
export function notFoundAdvice(method: string, path: string, param?: string): string {
  const verb = method.toUpperCase();
  const shown = path.split('?')[0];
  const match = matchRoute(verb, shown);
  // The answer names a field of the request that is not in the path: that id is the unknown one.
  if (match.kind === 'route' && param && !match.route.pattern.includes(`{${param}}`)) {
    const lister = LISTERS_OF_FIELDS[param];
    return `check the ${param}${lister ? ` (${lister} shows valid ones)` : ' the request names'}`;
  }
  if (match.kind === 'none')
    return `${verb} ${shown} is not a route of the API: check the path (paths are below /rest/v1, such as /orders or /products/{id})`;
  if (match.kind === 'method')
    return `${match.route.pattern} takes ${match.route.methods.join(', ')}, not ${verb}`;
  if (match.route.lister) {
    const what = match.route.pattern.includes('{sku}') ? 'SKU' : 'id';
    return `check the ${what} (${match.route.lister} shows valid ones)`;
  }
  return `the service at this address has no ${match.route.pattern}: check the base URL`;
}

function splitPath(path: string): string[] {
  return path.split('?')[0].split('/').filter(Boolean);
}

function fits(pattern: string[], segments: string[]): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((part, index) => part.startsWith('{') || part === segments[index])
  );
}

function placeholders(pattern: string): number {
  return pattern.split('{').length - 1;
}
