import { describe, expect, it } from 'vitest';
import { describeColumns, planColumns } from '../../../../src/core/csv/columns.js';

const FIELDS = [
  { field: 'sku' },
  { field: 'quantity', lookalikes: ['qty', 'stock', 'onhand'] },
  { field: 'price', lookalikes: ['price', 'cost'] },
];

describe('planColumns', () => {
  it('reads mapped and default columns and names the rest', () => {
    const plan = planColumns(['Item', 'quantity', 'Note', ''], FIELDS, {
      map: { sku: 'item' },
      mappable: true,
    });
    expect(plan.indexes).toEqual({ sku: 0, quantity: 1, price: undefined });
    expect(describeColumns(plan)).toBe('sku from "Item", quantity; ignoring "Note", "(column 4, no name)"');
  });

  it('spots a lookalike by its words, camel case and punctuation included', () => {
    for (const header of ['Qty', 'Stock Level', 'OnHand', 'on-hand', 'available_qty']) {
      expect(() => planColumns(['sku', 'price', header], FIELDS, { mappable: true }), header).toThrow(
        /looks like quantity/,
      );
    }
    expect(() => planColumns(['sku', 'quantity', 'Unit Cost'], FIELDS, { mappable: true })).toThrow(
      /looks like price/,
    );
    expect(() => planColumns(['sku', 'quantity', 'Quantity2'], FIELDS, { mappable: true })).not.toThrow();
  });

  it('takes --ignore for a lookalike, and refuses to ignore what is missing or read', () => {
    expect(planColumns(['sku', 'price', 'Qty'], FIELDS, { ignore: ['QTY'], mappable: true }).ignored).toEqual(
      ['Qty'],
    );
    expect(() => planColumns(['sku', 'price'], FIELDS, { ignore: ['qty'], mappable: true })).toThrow(
      /no such column/,
    );
    expect(() => planColumns(['sku', 'price'], FIELDS, { ignore: ['price'], mappable: true })).toThrow(
      /read as price/,
    );
  });

  it('refuses to read one column as two fields', () => {
    expect(() =>
      planColumns(['sku', 'Qty'], FIELDS, { map: { quantity: 'Qty', price: 'qty' }, mappable: true }),
    ).toThrow(/the column "Qty" would be read as both quantity and price/);
    // A mapped field onto the column another field reads by its own name.
    expect(() =>
      planColumns(['sku', 'quantity'], FIELDS, { map: { price: 'quantity' }, mappable: true }),
    ).toThrow(/the column "quantity" would be read as both quantity and price/);
  });

  it('without --map, tells to rename a lookalike column', () => {
    expect(() => planColumns(['sku', 'price', 'Qty'], FIELDS, { mappable: false })).toThrow(
      /; rename it to quantity, or --ignore Qty if it is meant to be left out$/,
    );
  });
});
