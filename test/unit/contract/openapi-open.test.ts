/**
 * docs/openapi.json is as open as the reference: answers take unknown properties and new enum
 * values (`x-extensible-enum`, the emulator's own values marked), requests stay closed and carry
 * the limits the emulator enforces, and HEAD is documented wherever GET is.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument, strictOpenApiDocument } from '../../../src/contract/openapi.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON.
const doc = openApiDocument() as any;
const schemas = doc.components.schemas;

describe('an open document', () => {
  it('closes no answer object, and the strict twin closes them all', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"additionalProperties":false');
    expect(JSON.stringify(strictOpenApiDocument())).toContain('"additionalProperties":false');
  });

  it('lists response enums as extensible, marking the ones the reference does not give', () => {
    expect(schemas.Listing.properties.status['x-extensible-enum']).toContain('delisted');
    expect(schemas.Listing.properties.status.anyOf).toContainEqual({ type: 'string' });
    expect(schemas.Listing.properties.status['x-emulator-values']).toBeUndefined();
    expect(schemas.Order.properties.status['x-extensible-enum']).toContain('shipped');
    expect(schemas.Error.properties.error.properties.code['x-extensible-enum']).toContain('invalid_state');
    expect(schemas.ListingIssue.properties.severity['x-emulator-values']).toBe(true);
    expect(schemas.OperationResult.properties.status['x-emulator-values']).toBe(true);
    expect(schemas.Listing.properties.variants.items.properties.status['x-emulator-values']).toBe(true);
    expect(schemas.Event.anyOf.at(-1).properties.type.not.enum).toContain('order.created');
  });

  it('keeps request enums closed and states the limits the emulator enforces', () => {
    expect(schemas.ProductInput.properties.status).toEqual({ type: 'string', enum: ['ready', 'draft'] });
    expect(schemas.VariantInput.properties.grams).toMatchObject({ maximum: 2147483647 });
    expect(schemas.FileInput.properties.base64.pattern).toContain('A-Za-z0-9+/');
    expect(schemas.ImageInput.properties.url.pattern).toBe('^[Hh][Tt][Tt][Pp][Ss]?:\\/\\/');
    const required = schemas.ProductUpdate.anyOf.map((branch: { required: string[] }) => branch.required[0]);
    expect(required).toContain('title');
    expect(required).not.toContain('expected_updated_at');
    expect(schemas.ProductUpdate.properties.expected_updated_at.format).toBe('date-time');
  });

  it('documents HEAD on every path that answers GET', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      if (item.get) expect(item.head, path).toBeDefined();
    }
  });
});
