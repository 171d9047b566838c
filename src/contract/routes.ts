/**
 * The routes of the API as the contract pins them (below /rest/v1), so that a 404 can be
 * told apart: a path the API does not have, a method the path does not take, or an id that
 * does not exist (and which list shows the valid ones).
 */

/** One path pattern, the methods it takes and, for a path with an id, the command that lists valid ids. */
interface ApiRoute {
  pattern: string;
  methods: readonly string[];
  lister?: string;
}

const API_ROUTES: readonly ApiRoute[] = [
  { pattern: '/status', methods: ['GET'] },
  { pattern: '/health', methods: ['GET'] },
  { pattern: '/products', methods: ['GET', 'POST'] },
  { pattern: '/products/batch', methods: ['POST'] },
  { pattern: '/products/{id}', methods: ['GET', 'PATCH', 'DELETE'], lister: 'svc products list' },
  { pattern: '/listings', methods: ['GET', 'POST'] },
  { pattern: '/listings/batch', methods: ['POST'] },
  { pattern: '/listings/{id}', methods: ['GET', 'PATCH', 'DELETE'], lister: 'svc listings list' },
  { pattern: '/orders', methods: ['GET'] },
  { pattern: '/orders/{id}', methods: ['GET'], lister: 'svc orders list' },
  { pattern: '/orders/{id}/fulfillment', methods: ['POST'], lister: 'svc orders list' },
  { pattern: '/operations', methods: ['GET'] },
  { pattern: '/operations/{id}', methods: ['GET'], lister: 'svc operations list' },
  { pattern: '/channel_accounts', methods: ['GET'] },
  { pattern: '/channel_accounts/{id}', methods: ['GET'], lister: 'svc channels list' },
  { pattern: '/channel_accounts/{id}/policies', methods: ['GET'], lister: 'svc channels list' },
  { pattern: '/channel_accounts/{id}/categories', methods: ['GET'], lister: 'svc channels list' },
  {
    pattern: '/channel_accounts/{id}/categories/{category_id}/attribute_schema',
    methods: ['GET'],
    lister: 'svc channels categories ID',
  },
  { pattern: '/inventory/batch', methods: ['POST'] },
  { pattern: '/inventory/{sku}', methods: ['PATCH'], lister: 'svc inventory export' },
  { pattern: '/files', methods: ['POST'] },
  { pattern: '/webhook_endpoints', methods: ['GET', 'POST'] },
  { pattern: '/webhook_endpoints/{id}', methods: ['GET', 'PATCH', 'DELETE'], lister: 'svc webhooks list' },
  { pattern: '/events', methods: ['GET'] },
];

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
    (a, b) => placeholders(a) - placeholders(b),
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

function placeholders(route: ApiRoute): number {
  return route.pattern.split('{').length - 1;
}
