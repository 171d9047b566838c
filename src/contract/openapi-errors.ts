/**
 * The error answers and response headers of the OpenAPI document: which statuses and codes
 * each operation answers (the contract's error table, narrowed per operation), and the
 * rate-limit, Retry-After and idempotency headers that come with them.
 */
import { ERROR_CODES, ERROR_TYPES } from './contract.js';
import type { ApiOperation } from './operations.js';

/** A JSON value of the document. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** An object of the document. */
export type JsonObject = { [key: string]: Json };

const C = ERROR_CODES;

/** The `type` each error code comes with (docs/service-contract.md, Errors). */
const ERROR_TYPE_OF: Readonly<Record<string, string>> = {
  [C.parameterInvalid]: ERROR_TYPES.invalidRequest,
  [C.parameterMissing]: ERROR_TYPES.invalidRequest,
  [C.bodyInvalid]: ERROR_TYPES.invalidRequest,
  [C.batchTooLarge]: ERROR_TYPES.invalidRequest,
  [C.apiKeyMissing]: ERROR_TYPES.authentication,
  [C.apiKeyInvalid]: ERROR_TYPES.authentication,
  [C.scopeMissing]: ERROR_TYPES.authentication,
  [C.planNotEligible]: ERROR_TYPES.permission,
  [C.resourceMissing]: ERROR_TYPES.invalidRequest,
  [C.idempotencyKeyReused]: ERROR_TYPES.idempotency,
  [C.invalidState]: ERROR_TYPES.invalidRequest,
  [C.listingExists]: ERROR_TYPES.invalidRequest,
  [C.preconditionFailed]: ERROR_TYPES.invalidRequest,
  [C.fileTooLarge]: ERROR_TYPES.invalidRequest,
  [C.variantMatrixIncomplete]: ERROR_TYPES.invalidRequest,
  [C.validationFailed]: ERROR_TYPES.invalidRequest,
  [C.rateLimitExceeded]: ERROR_TYPES.rateLimit,
  [C.writeQuotaExceeded]: ERROR_TYPES.rateLimit,
  [C.internalError]: ERROR_TYPES.api,
  [C.serviceUnavailable]: ERROR_TYPES.api,
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'The query, a header or the body is wrong; `param` names it',
  401: 'No key, or a malformed, unknown, rolled or revoked one',
  403: 'The key lacks the scope (the message names it), or the subscription is not live',
  404: 'No such id, SKU or path, or an id the body names is unknown',
  409: 'In conflict with the state of the resource, or an Idempotency-Key reused with another request',
  412: '`expected_updated_at` is stale: the product changed since',
  413: 'The body or an image in it is over the limit',
  422: 'Well-formed, but against a rule of the service',
  429: 'The rate-limit bucket is full, or the daily write quota is used up; wait `Retry-After` seconds',
  500: 'The service failed',
  503: 'The service is unavailable for a while; `Retry-After` may say how long',
};

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** The response headers, by component name; `required` where a response that refers to one always has it. */
export const RESPONSE_HEADERS: Readonly<Record<string, JsonObject>> = {
  'X-RateLimit-Limit': {
    description:
      "The key's bucket size. On every answer to a request with a valid key (not on /status, /health or a 401); an emulator started with `--no-rate-limit` sends none.",
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Whole requests that fit in the bucket now.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description:
      'The Unix second, rounded up, at which at least one more request fits (now, when Remaining > 0).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description:
      'Whole seconds to wait: until one request fits the bucket (at least 1), or until 00:00 UTC for the write quota.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Request-Id': {
    description: "The service's id of this request, for support.",
    schema: { type: 'string' },
  },
  'Idempotency-Key': {
    description: 'The Idempotency-Key of the request, echoed.',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const header = (name: string): JsonObject => ({ $ref: `#/components/headers/${name}` });

/** Answers whose headers and codes are the same on every operation that has them, by component name. */
const SHARED_RESPONSES: Readonly<Record<string, { status: number; codes: string[]; rateLimited: boolean }>> =
  {
    Unauthorized: { status: 401, codes: [C.apiKeyMissing, C.apiKeyInvalid], rateLimited: false },
    Forbidden: { status: 403, codes: [C.scopeMissing, C.planNotEligible], rateLimited: true },
    NotFound: { status: 404, codes: [C.resourceMissing], rateLimited: true },
    PayloadTooLarge: { status: 413, codes: [C.fileTooLarge], rateLimited: false },
    RateLimited: { status: 429, codes: [C.rateLimitExceeded], rateLimited: true },
    RateLimitedOrQuota: {
      status: 429,
      codes: [C.rateLimitExceeded, C.writeQuotaExceeded],
      rateLimited: true,
    },
    InternalError: { status: 500, codes: [C.internalError], rateLimited: false },
    Unavailable: { status: 503, codes: [C.serviceUnavailable], rateLimited: false },
  };

/** The headers of an answer with `status` to `operation`. */
export function responseHeaders(operation: ApiOperation, status: number, rateLimited: boolean): JsonObject {
  const headers: JsonObject = { 'Request-Id': header('Request-Id') };
  if (rateLimited && operation.scope !== null)
    for (const name of RATE_LIMIT_HEADERS) headers[name] = header(name);
  if (operation.method !== 'GET' && status < 500) {
    headers['Idempotency-Key'] = header('Idempotency-Key');
    headers['Idempotent-Replayed'] = header('Idempotent-Replayed');
  }
  return headers;
}

/** The error codes `operation` answers, by status: those of its kind, and its own. */
export function errorCodes(operation: ApiOperation): Map<number, string[]> {
  const codes = new Map<number, Set<string>>();
  const add = (status: number, ...list: readonly string[]) => {
    const set = codes.get(status) ?? new Set<string>();
    for (const code of list) set.add(code);
    codes.set(status, set);
  };
  const write = operation.method !== 'GET';
  if (operation.query || write) add(400, C.parameterInvalid);
  if (write) add(400, C.bodyInvalid);
  if (operation.body) add(400, C.parameterMissing);
  if (operation.scope !== null) {
    add(401, C.apiKeyMissing, C.apiKeyInvalid);
    add(403, C.scopeMissing, C.planNotEligible);
  }
  if (operation.path.includes('{')) add(404, C.resourceMissing);
  if (write) {
    add(409, C.idempotencyKeyReused);
    add(413, C.fileTooLarge);
  }
  if (operation.scope !== null) add(429, C.rateLimitExceeded);
  if (operation.quota) add(429, C.writeQuotaExceeded);
  add(500, C.internalError);
  add(503, C.serviceUnavailable);
  for (const [status, list] of Object.entries(operation.errors ?? {})) add(Number(status), ...(list ?? []));
  return new Map([...codes].sort(([a], [b]) => a - b).map(([status, set]) => [status, [...set]]));
}

/** The shared error answers, as `components.responses`. */
export function sharedResponses(): JsonObject {
  const out: JsonObject = {};
  for (const [name, shared] of Object.entries(SHARED_RESPONSES)) {
    const headers: JsonObject = { 'Request-Id': header('Request-Id') };
    if (shared.rateLimited) for (const rate of RATE_LIMIT_HEADERS) headers[rate] = header(rate);
    if (shared.status === 429) headers['Retry-After'] = header('Retry-After');
    if (shared.status === 503)
      headers['Retry-After'] = { ...RESPONSE_HEADERS['Retry-After'], required: false };
    out[name] = errorResponse(shared.status, shared.codes, headers);
  }
  return out;
}

/**
 * The error answer with `status` to `operation`: a shared one when its codes are those of a
 * shared one, else the Error body narrowed to the codes this operation sends.
 */
export function operationError(operation: ApiOperation, status: number, codes: string[]): JsonObject {
  const shared = Object.entries(SHARED_RESPONSES).find(
    ([, candidate]) =>
      candidate.status === status &&
      candidate.codes.length === codes.length &&
      candidate.codes.every((code) => codes.includes(code)),
  );
  if (shared && (operation.scope !== null || !shared[1].rateLimited))
    return { $ref: `#/components/responses/${shared[0]}` };
  return errorResponse(status, codes, responseHeaders(operation, status, true));
}

function errorResponse(status: number, codes: string[], headers: JsonObject): JsonObject {
  const types = [...new Set(codes.map((code) => ERROR_TYPE_OF[code] ?? ERROR_TYPES.invalidRequest))];
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((code) => `\`${code}\``).join(', ')}.`,
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            {
              type: 'object',
              properties: {
                error: { type: 'object', properties: { type: { enum: types }, code: { enum: codes } } },
              },
            },
          ],
        },
      },
    },
  };
}
