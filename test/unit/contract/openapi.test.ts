/**
 * docs/openapi.json is what the contract generates (`npm run openapi` writes it), a valid
 * OpenAPI 3.1 document whose schemas all compile, with the same routes as the client's table,
 * and answers that hold at least every field svc reads.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openApiDocument, openApiText } from '../../../src/contract/openapi.js';
import { API_OPERATIONS } from '../../../src/contract/operations.js';
import * as catalog from '../../../src/contract/responses/catalog.js';
import * as store from '../../../src/contract/responses/store.js';
import { matchRoute } from '../../../src/contract/routes.js';
import { schemaFields } from '../../../src/contract/schemas/fields.js';
import * as client from '../../../src/contract/schemas/index.js';
import { OPENAPI_PATH, OpenApiCheck } from '../../emulator/openapi-check.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
const doc = openApiDocument() as any;

describe('docs/openapi.json', () => {
  it('is what the contract generates (run `npm run openapi` and commit docs/openapi.json when this fails)', () => {
    expect(readFileSync(OPENAPI_PATH, 'utf8')).toBe(openApiText());
  });

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has schemas that all compile, references that all resolve, and a checker that finds faults', () => {
    const check = new OpenApiCheck(doc);
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => check.compile(`#/components/schemas/${name}`), name).not.toThrow();
    }
    const serialized = JSON.stringify(doc);
    for (const [, ref] of serialized.matchAll(/"\$ref":"([^"]+)"/g)) {
      expect(check.resolve(ref as string), ref).toBeDefined();
    }
    expect(
      check.problems({
        method: 'GET',
        path: '/health',
        status: 200,
        headers: {},
        body: { object: 'health' },
      }),
    ).not.toEqual([]);
    expect(check.problems({ method: 'GET', path: '/nope', status: 200, headers: {}, body: {} })).not.toEqual(
      [],
    );
    expect(
      check.problems({ method: 'GET', path: '/health', status: 418, headers: {}, body: {} }),
    ).not.toEqual([]);
  });

  it('names every operation, parameter, body, answer and error the contract has', () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as object));
    expect(operations.filter((operation) => !operation.operationId.startsWith('head'))).toHaveLength(
      API_OPERATIONS.length,
    );
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/orders'].get.security).toEqual([{ bearer: ['orders:read'] }]);
    expect(doc.paths['/health'].get.security).toEqual([]);
    expect(doc.paths['/health'].head.responses['200'].content).toBeUndefined();
    const status = doc.paths['/orders'].get.parameters.find((p: { name: string }) => p.name === 'status');
    expect(status.schema.anyOf[0].enum).toContain('awaiting_payment');
    const limit = doc.paths['/orders'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 25 });
    expect(doc.components.schemas.Order.properties.tracking.anyOf).toContainEqual({ type: 'null' });
    expect(doc.components.schemas.Variant.required).toContain('msrp');
    expect(doc.components.schemas.Listing.properties.operation_id.anyOf).toContainEqual({ type: 'null' });
    const patch = doc.paths['/products/{id}'].patch;
    expect(patch.responses['412']).toBeDefined();
    expect(patch.responses['200'].headers['X-RateLimit-Remaining']).toEqual({
      $ref: '#/components/headers/X-RateLimit-Remaining',
    });
    expect(patch.responses['429']).toEqual({ $ref: '#/components/responses/RateLimitedOrQuota' });
    expect(doc.components.responses.RateLimited.headers['Retry-After']).toBeDefined();
    expect(doc.components.headers['X-RateLimit-Limit'].required).toBe(true);
  });

  it("has the same routes as the client's route table", () => {
    for (const operation of API_OPERATIONS) {
      if (operation.path === '/openapi.json') continue;
      const concrete = operation.path.replace(/\{\w+\}/g, 'x1');
      expect(matchRoute(operation.method, concrete), `${operation.method} ${operation.path}`).toMatchObject({
        kind: 'route',
        route: { pattern: operation.path },
      });
    }
  });

  it('documents every field the client reads, in each answer', () => {
    const pairs: [string, z.ZodType, z.ZodType][] = [
      ['Product', client.Product, catalog.ProductWithSync],
      ['Listing', client.Listing, catalog.Listing],
      ['InventoryItem', client.InventoryItem, catalog.InventoryItemWithSync],
      ['InventoryBatchResult', client.InventoryBatchResult, catalog.InventoryBatchResult],
      ['BatchResult', client.BatchResult, catalog.BatchResult],
      ['File', client.File, catalog.File],
      ['ChannelAccount', client.ChannelAccount, store.ChannelAccount],
      ['ChannelAccountSummary', client.ChannelAccountSummary, store.ChannelAccountSummary],
      ['Policy', client.Policy, store.Policy],
      ['Category', client.Category, store.Category],
      ['AttributeSchema', client.AttributeSchema, store.AttributeSchema],
      ['Order', client.Order, store.Order],
      ['Operation', client.Operation, store.Operation],
      ['WebhookEndpoint', client.WebhookEndpoint, store.WebhookEndpointWithSecret],
      ['Status', client.Status, store.Status],
      ['Health', client.Health, store.Health],
    ];
    for (const [name, read, sent] of pairs) {
      const documented = new Set(schemaFields(sent));
      const undocumented = schemaFields(read).filter((field) => !documented.has(field));
      expect(undocumented, name).toEqual([]);
    }
  });
});
