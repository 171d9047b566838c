/**
 * The OpenAPI 3.1 document of the service as svc and its emulator understand it, generated
 * from the contract's own zod schemas (zod 4's JSON Schema conversion) and its operation table,
 * never written by hand. The emulator serves it at GET /rest/v1/openapi.json, and
 * `npm run openapi` writes it to docs/openapi.json, where a test checks it for drift.
 */
import { z } from 'zod';
import {
  API_PREFIX,
  ERROR_CODES,
  ERROR_TYPES,
  EVENT_TYPES,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  LISTING_STATUSES,
  OPERATION_STATUSES,
  ORDER_STATUSES,
  RATE_TIERS,
  SCOPES,
} from './contract.js';
import {
  errorCodes,
  type JsonObject,
  operationError,
  RESPONSE_HEADERS,
  responseHeaders,
  sharedResponses,
} from './openapi-errors.js';
import { API_OPERATIONS, type ApiOperation, OpenApiDocumentShape } from './operations.js';
import * as catalog from './responses/catalog.js';
import { Deleted, ErrorBody } from './responses/common.js';
import * as store from './responses/store.js';
import { FileInput } from './schemas/file.js';
import { InventoryBatchInput, InventoryBatchItem, InventoryUpdate } from './schemas/inventory.js';
import { ListingBatchInput, ListingInput, ListingUpdate } from './schemas/listing.js';
import { FulfillmentInput } from './schemas/order.js';
import {
  ImageInput,
  ProductBatchInput,
  ProductInput,
  ProductUpdate,
  VariantInput,
} from './schemas/product.js';
import { WebhookEndpointInput, WebhookEndpointUpdate } from './schemas/webhook-endpoint.js';

export type { Json, JsonObject } from './openapi-errors.js';

/** Request bodies by the name the document gives them. */
const REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  ProductInput,
  ProductUpdate,
  ProductBatchInput,
  VariantInput,
  ImageInput,
  FileInput,
  ListingInput,
  ListingUpdate,
  ListingBatchInput,
  InventoryUpdate,
  InventoryBatchItem,
  InventoryBatchInput,
  FulfillmentInput,
  WebhookEndpointInput,
  WebhookEndpointUpdate,
};

/** Answers by the name the document gives them. */
const RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  ...pickSchemas(catalog),
  ...pickSchemas(store),
  Deleted,
  Error: ErrorBody,
  OpenApiDocument: OpenApiDocumentShape,
};

const SECURITY_SCHEME = 'bearer';
const TAGS: readonly { name: string; description: string }[] = [
  { name: 'Service', description: 'Status, health and this document: no key needed.' },
  { name: 'Channel accounts', description: 'The connected accounts and their discovery data.' },
  { name: 'Products', description: 'The catalog: products with variants and images.' },
  { name: 'Files', description: 'Images hosted for products.' },
  { name: 'Listings', description: 'Products published on channel accounts.' },
  { name: 'Inventory', description: 'Quantity and price by SKU.' },
  { name: 'Orders', description: 'Orders from every channel in one shape, and their fulfillment.' },
  { name: 'Operations', description: 'The asynchronous propagation of writes to the channels.' },
  { name: 'Events', description: 'The event log; the same events are delivered to webhook endpoints.' },
  { name: 'Webhook endpoints', description: 'Where events are delivered, signed.' },
];

let cached: JsonObject | undefined;
let cachedStrict: JsonObject | undefined;

/**
 * The document (built once, then the same object; treat it as read-only). Its answers are as open
 * as the reference promises: objects take unknown properties, and enums list the known values
 * but take any string (`x-extensible-enum`), so a client generated from it tolerates what the
 * service may add within /v1. Request bodies stay closed.
 */
export function openApiDocument(): JsonObject {
  cached ??= buildDocument(false);
  return cached;
}

/**
 * The same document with the answers closed: no property and no enum value beyond the ones
 * listed. It is exactly what the emulator sends, so its tests check every answer against it.
 */
export function strictOpenApiDocument(): JsonObject {
  cachedStrict ??= buildDocument(true);
  return cachedStrict;
}

/** The document as docs/openapi.json holds it: two-space JSON and a final newline. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

function buildDocument(strict: boolean): JsonObject {
  const paths: JsonObject = {};
  for (const operation of API_OPERATIONS) {
    const item = (paths[operation.path] ?? {}) as JsonObject;
    paths[operation.path] = item;
    item[operation.method.toLowerCase()] = operationObject(operation, false);
    // Every GET route answers HEAD, as GET without a body.
    if (operation.method === 'GET') item.head = operationObject(operation, true);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Multichannel Commerce Service API, as svc and its emulator implement it',
      version: 'v1',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: `{base_url}${API_PREFIX}`,
        description:
          'The service, or `svc emulator start` (http://127.0.0.1:4010 unless --port says otherwise)',
        variables: { base_url: { default: 'http://127.0.0.1:4010' } },
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas: {
        ...components(REQUEST_SCHEMAS, 'input', true),
        ...components(RESPONSE_SCHEMAS, 'output', strict),
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the write safe to repeat: the same key with the same method, path and body gets the stored answer again (with `Idempotent-Replayed: true`) and nothing is applied twice; with another request it is 409 `idempotency_key_reused`. Kept 24 hours, per API key.',
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
        },
      },
      responses: sharedResponses(),
      headers: RESPONSE_HEADERS as JsonObject,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'svc_live_… or svc_test_…',
          description:
            'An API key, `svc_live_…` (writes change the store) or `svc_test_…` (writes are validated and simulated). Each operation names the scope it needs.',
        },
      },
    },
  };
}

/** One operation of `paths`; `head` makes the HEAD twin of a GET (the same answers, no bodies). */
function operationObject(operation: ApiOperation, head: boolean): JsonObject {
  const notes = [
    head ? 'GET without a body (RFC 9110): the same status and headers.' : operation.description,
    operation.scope ? `Needs the scope \`${operation.scope}\`.` : 'Needs no key.',
    operation.quota ? 'Counts against the daily write quota when it succeeds with a live key.' : undefined,
  ].filter((note): note is string => note !== undefined);
  const object: JsonObject = {
    operationId: head ? `head${operation.id.charAt(0).toUpperCase()}${operation.id.slice(1)}` : operation.id,
    tags: [operation.tag],
    summary: head ? `${operation.summary} (headers only)` : operation.summary,
    description: notes.join(' '),
    security: operation.scope ? [{ [SECURITY_SCHEME]: [operation.scope] }] : [],
  };
  const parameters = [...pathParameters(operation), ...queryParameters(operation)];
  if (operation.method !== 'GET') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (parameters.length > 0) object.parameters = parameters;
  if (operation.body) {
    object.requestBody = {
      required: !(operation.method === 'PATCH' && operation.path.startsWith('/listings/')),
      content: { 'application/json': { schema: schemaRef(REQUEST_SCHEMAS, operation.body, operation) } },
    };
  }
  const success: JsonObject = {
    description: operation.summary,
    headers: responseHeaders(operation, operation.status, true),
  };
  if (!head)
    success.content = {
      'application/json': { schema: schemaRef(RESPONSE_SCHEMAS, operation.response, operation) },
    };
  const responses: JsonObject = { [String(operation.status)]: success };
  for (const [status, codes] of errorCodes(operation)) {
    responses[String(status)] = head
      ? { description: `${codes.map((code) => `\`${code}\``).join(', ')}, without the body.` }
      : operationError(operation, status, codes);
  }
  object.responses = responses;
  return object;
}

function pathParameters(operation: ApiOperation): JsonObject[] {
  return [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name: name as string,
    in: 'path',
    required: true,
    description: operation.params?.[name as string] ?? name,
    schema: { type: 'string', minLength: 1 },
  }));
}

function queryParameters(operation: ApiOperation): JsonObject[] {
  if (!operation.query) return [];
  const schema = toJson(operation.query, 'input') as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: JsonObject = { name, in: 'query', required: schema.required?.includes(name) ?? false };
    if (description !== undefined) parameter.description = description;
    parameter.schema = rest;
    return parameter;
  });
}

/** A `$ref` to the component of `schema`, which must be one of `named`. */
function schemaRef(
  named: Readonly<Record<string, z.ZodType>>,
  schema: z.ZodType,
  operation: ApiOperation,
): JsonObject {
  const name = Object.entries(named).find(([, candidate]) => candidate === schema)?.[0];
  if (!name) throw new Error(`a schema of ${operation.id} has no name among the document's components`);
  return { $ref: `#/components/schemas/${name}` };
}

/**
 * The named schemas as JSON Schema components, each referring to the others by `$ref`; `closed`
 * false opens objects and enums as the reference's answers are (see openApiDocument).
 */
function components(
  named: Readonly<Record<string, z.ZodType>>,
  io: 'input' | 'output',
  closed: boolean,
): JsonObject {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: (context) => {
      dropNoise(context);
      if (!closed) openUp(context.jsonSchema);
    },
  }) as { schemas: Record<string, JsonObject> };
  const out: JsonObject = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, override: dropNoise }) as JsonObject;
  return rest;
}

/** Integer bounds that only restate JavaScript's safe range say nothing; they are left out. */
function dropNoise(context: { jsonSchema: Record<string, unknown> }): void {
  const schema = context.jsonSchema;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
}

/** The enumerations the reference (or the contract pinned beside it) gives; others are the emulator's own. */
const REFERENCE_ENUMS: readonly (readonly string[])[] = [
  LISTING_STATUSES,
  ORDER_STATUSES,
  OPERATION_STATUSES,
  EVENT_TYPES,
  Object.values(ERROR_TYPES),
  Object.values(ERROR_CODES),
];

/**
 * An answer's schema as open as the reference promises: an object takes unknown properties,
 * and an enum of strings lists the known values and takes any string, marked `x-extensible-enum`;
 * values the reference does not list are marked as the emulator's.
 */
function openUp(schema: Record<string, unknown>): void {
  if (schema.type === 'object' && schema.additionalProperties === false) delete schema.additionalProperties;
  openDiscriminated(schema);
  const values = schema.enum;
  if (schema.type !== 'string' || !Array.isArray(values) || values.length < 2) return;
  const referenced = REFERENCE_ENUMS.some((known) => values.every((value) => known.includes(value)));
  delete schema.type;
  delete schema.enum;
  schema.anyOf = [{ type: 'string', enum: values }, { type: 'string' }];
  schema['x-extensible-enum'] = values;
  if (!referenced) {
    schema['x-emulator-values'] = true;
    const note = 'The values the emulator sends; the reference does not list them, and others may appear.';
    schema.description = typeof schema.description === 'string' ? `${schema.description} ${note}` : note;
  }
}

/**
 * A union told apart by a constant `type` (the events) takes a new type too: one more branch for
 * any other type, whose `data.object` is any object; `anyOf`, since open branches may overlap.
 */
function openDiscriminated(schema: Record<string, unknown>): void {
  type Branch = { properties?: Record<string, { const?: unknown }> } & Record<string, unknown>;
  const branches = schema.oneOf as Branch[] | undefined;
  if (!Array.isArray(branches) || branches.length < 2) return;
  const types = branches.map((branch) => branch.properties?.type?.const);
  if (!types.every((type) => typeof type === 'string')) return;
  const [first] = branches as [Branch];
  const other: Branch = {
    ...first,
    description: 'an event of a type added after this document',
    properties: {
      ...first.properties,
      type: { type: 'string', not: { enum: types } } as { const?: unknown },
      data: { type: 'object', properties: { object: { type: 'object' } }, required: ['object'] } as {
        const?: unknown;
      },
    },
  };
  delete schema.oneOf;
  schema.anyOf = [...branches, other];
}

/** The zod schemas a module exports, by their export names, sorted (a bundle keeps another order than the source). */
function pickSchemas(module: Record<string, unknown>): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(module)
      .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

const DESCRIPTION = [
  'The REST API of the Multichannel Commerce Service as the `svc` command line and its bundled emulator implement it: generated from the zod schemas and the operation table they share, so it describes exactly what the emulator serves. Where the published reference is silent, it says what the emulator does; docs/service-contract.md in the svc repository says why.',
  '',
  '- Bodies are JSON: a body declared with any Content-Type but `application/json` (parameters such as charset aside) is refused 400 `body_invalid`; a body without a declared type is read as JSON.',
  '- HEAD is answered wherever GET is, as GET without a body.',
  `- Keys: \`Authorization: Bearer svc_live_…\` or \`svc_test_…\`, scoped (${SCOPES.map((scope) => `\`${scope}\``).join(', ')}). Checks run in this order: authentication (401), rate limit (429), route (404), scope (403), then the request itself.`,
  `- Rate limit: a leaky bucket per key (top tier ${RATE_TIERS.top.bucket} requests draining ${RATE_TIERS.top.drainPerSecond}/s; trial ${RATE_TIERS.trial.bucket} at ${RATE_TIERS.trial.drainPerSecond}/s), told in the \`X-RateLimit-*\` headers; a daily write quota counts successful writes to products, inventory and listings with a live key.`,
  '- Lists are keyset pages (`updated_at` or `created_at` descending, then id), `limit` 1 to 100; follow `next_cursor` while `has_more`.',
  "- Within /v1 the service only adds: new fields, enum values and error codes may appear in answers, and clients tolerate them. So answers here are open: an object may carry properties it does not list, and an enumeration (`x-extensible-enum`) lists the known values but takes any string. Values marked `x-emulator-values` are the emulator's own; the reference does not list them. Request bodies are closed: they take only the values listed.",
].join('\n');
