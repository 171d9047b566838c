/**
 * Every choice that docs/service-contract.md pins where the reference says "not shown",
 * in one place, so it can change when the live service turns out to differ.
 * Both the CLI and the emulator import from here.
 */

/** Path prefix below the base URL. */
export const API_PREFIX = '/rest/v1';

/** A key is `svc_live_…` or `svc_test_…`; anything else is malformed and never sent. */
export const API_KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_]+$/;

export type KeyMode = 'live' | 'test';

/** The mode a well-formed key declares, or undefined for a malformed one. */
export function keyMode(key: string): KeyMode | undefined {
  const match = API_KEY_PATTERN.exec(key);
  return match ? (match[1] as KeyMode) : undefined;
}

/** Anything shaped like a key, wherever it sits in a text. */
export const API_KEY_IN_TEXT = /svc_(?:live|test)_[A-Za-z0-9_]+/g;

/** Whether `text` holds something shaped like a key (a key pasted where a name was asked). */
export function holdsKey(text: string): boolean {
  return /svc_(?:live|test)_[A-Za-z0-9_]/.test(text);
}

/**
 * A key shown to a person: prefix and last four characters only, and only when at least as
 * many stay hidden, so that a short key is never shown whole.
 */
export function maskKey(key: string): string {
  const mode = keyMode(key);
  const prefix = mode ? `svc_${mode}_` : key.length >= 12 ? key.slice(0, 4) : '';
  const rest = key.slice(prefix.length);
  return `${prefix}…${rest.length >= 8 ? rest.slice(-4) : ''}`;
}

export const SCOPES = [
  'products:read',
  'products:write',
  'inventory:write',
  'listings:write',
  'orders:read',
  'orders:write',
  'webhooks:manage',
  'events:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** The read scopes, each with the cheapest list that needs it (docs/service-contract.md, Scopes). */
export const READ_SCOPE_PROBES = {
  'products:read': '/products',
  'orders:read': '/orders',
  'events:read': '/events',
} as const satisfies Partial<Record<Scope, string>>;
export type ReadScope = keyof typeof READ_SCOPE_PROBES;

/** Published rate-limit tiers: burst B, drain r per second (r = B / 20). */
export const RATE_TIERS = {
  top: { bucket: 80, drainPerSecond: 4 },
  trial: { bucket: 40, drainPerSecond: 2 },
} as const;

/** A client starts from r = B / 20 and corrects it from observed refills. */
export const INITIAL_DRAIN_RATIO = 1 / 20;

export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
} as const;

/** Headers that may carry the service's id of a request, first found wins (stripe-mock echoes `request-id`). */
/** Retry-After on 429 is at least 1 s (docs/service-contract.md, Rate limit); shorter or past waits are raised to it. */
export const RETRY_AFTER_MIN_MS = 1000;
export const REQUEST_ID_HEADERS = ['request-id', 'x-request-id'] as const;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 100;

/**
 * The field each keyset-paged list sorts on, newest first, with the id (descending) breaking
 * ties (docs/service-contract.md, Lists): within one crawl every item sorts strictly after the
 * one before it, so a pager tells a repeat without remembering what it saw. Lists not named
 * here (channel accounts, categories) have no such order.
 */
export const LIST_ORDER: Readonly<Record<string, 'updated_at' | 'created_at'>> = {
  '/products': 'updated_at',
  '/listings': 'updated_at',
  '/orders': 'updated_at',
  '/operations': 'created_at',
  '/events': 'created_at',
  '/webhook_endpoints': 'created_at',
};
export const PAGE_LIMIT_DEFAULT = 25;

/** Items per request for product upsert, listing publish and inventory batches. */
export const BATCH_MAX_ITEMS = 100;

export const FILE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGES_PER_PRODUCT_MAX = 20;
export const EVENT_LOG_WINDOW_DAYS = 30;
export const DEFAULT_WRITE_QUOTA = 10_000;

/** Quantity bounds of an inventory item; price is a non-negative decimal string. */
export const QUANTITY_MAX = 2_147_483_647;
export const PRICE_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

/** The kind prefix of each identifier (docs/service-contract.md, Identifiers). */
export const ID_PREFIXES = {
  product: 'prod_',
  variant: 'var_',
  image: 'img_',
  listing: 'list_',
  'channel account': 'chac_',
  order: 'ord_',
  operation: 'op_',
  policy: 'pol_',
  file: 'file_',
  event: 'evt_',
  'webhook endpoint': 'we_',
} as const;
export type IdKind = keyof typeof ID_PREFIXES;

export const SIGNATURE_HEADER = 'x-service-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;
export const WEBHOOK_ANSWER_TIMEOUT_MS = 10_000;
/** Signing secrets look like `whsec_…`. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Hosts a webhook endpoint may reach over plain http (every other URL must be https). */
export const WEBHOOK_LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'] as const;
/** Delivery retry schedule after the first attempt: 1 min, 5 min, 30 min, 2 h, 12 h, then every 24 h to ~72 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
  24 * 3_600_000,
];

/** The delay before delivery retry number `retry` (1-based); beyond the schedule, its last step. */
export function webhookRetryDelayMs(retry: number): number {
  return WEBHOOK_RETRY_DELAYS_MS[Math.min(Math.max(retry, 1), WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? 0;
}

export const EVENT_TYPES = [
  'order.created',
  'order.status_changed',
  'product.updated',
  'product.deleted',
  'inventory.updated',
  'listing.status_changed',
  'operation.completed',
] as const;

export const LISTING_STATUSES = ['listed', 'imported', 'ongoing', 'error', 'delisted'] as const;
export const ORDER_STATUSES = [
  'awaiting_payment',
  'awaiting_shipment',
  'shipped',
  'canceled',
  'refunded',
  'partially_refunded',
] as const;
export const OPERATION_STATUSES = ['pending', 'processing', 'succeeded', 'partial', 'failed'] as const;
/** Product statuses the emulator keeps (the reference shows only `ready`); a write takes only these. */
export const PRODUCT_STATUSES = ['ready', 'draft'] as const;
export const OPERATION_TERMINAL_STATUSES = ['succeeded', 'partial', 'failed'] as const;
/** Listing issue codes the emulator produces; the service may name others at any time. */
export const ISSUE_CODES = [
  'photo_required_for_channel',
  'missing_required_attribute',
  'attribute_value_invalid',
  'title_too_long',
  'category_invalid',
  'price_below_minimum',
  'image_resolution_low',
  'channel_rate_limited',
  'channel_error',
] as const;

/** Error codes the contract names; clients still accept any other. */
export const ERROR_CODES = {
  parameterInvalid: 'parameter_invalid',
  parameterMissing: 'parameter_missing',
  bodyInvalid: 'body_invalid',
  batchTooLarge: 'batch_too_large',
  apiKeyMissing: 'api_key_missing',
  apiKeyInvalid: 'api_key_invalid',
  scopeMissing: 'scope_missing',
  planNotEligible: 'plan_not_eligible',
  resourceMissing: 'resource_missing',
  idempotencyKeyReused: 'idempotency_key_reused',
  invalidState: 'invalid_state',
  listingExists: 'listing_exists',
  preconditionFailed: 'precondition_failed',
  fileTooLarge: 'file_too_large',
  variantMatrixIncomplete: 'variant_matrix_incomplete',
  validationFailed: 'validation_failed',
  rateLimitExceeded: 'rate_limit_exceeded',
  writeQuotaExceeded: 'write_quota_exceeded',
  internalError: 'internal_error',
  serviceUnavailable: 'service_unavailable',
  skuNotFound: 'sku_not_found',
} as const;

export const ERROR_TYPES = {
  invalidRequest: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  idempotency: 'idempotency_error',
  rateLimit: 'rate_limit_error',
  api: 'api_error',
} as const;

/** Milliseconds from `now` to the next 00:00 UTC, when the daily write quota resets. */
export function msUntilUtcMidnight(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return next.getTime() - now;
}
