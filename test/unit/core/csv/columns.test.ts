import { describe, expect, it } from 'vitest';
import {
  describeColumns,
  looseHeaderKey,
  parseColumnMap,
  planColumns,
} from '../../../../src/core/csv/columns.js';

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

  it('takes --ignore for a lookalike and for a column named as a field, and refuses to ignore what is missing', () => {
    expect(planColumns(['sku', 'price', 'Qty'], FIELDS, { ignore: ['QTY'], mappable: true }).ignored).toEqual(
      ['Qty'],
    );
    expect(() => planColumns(['sku', 'price'], FIELDS, { ignore: ['qty'], mappable: true })).toThrow(
      /no such column/,
    );
    const unread = planColumns(['sku', 'price', 'quantity'], FIELDS, { ignore: ['Price'], mappable: true });
    expect(unread.indexes).toEqual({ sku: 0, quantity: 2, price: undefined });
    expect(describeColumns(unread)).toBe('sku, quantity; ignoring "price"');
    expect(() =>
      planColumns(['sku', 'Qty'], FIELDS, { map: { quantity: 'qty' }, ignore: ['qty'], mappable: true }),
    ).toThrow(/--ignore "Qty" and --map quantity=qty name the same column/);
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

  it('compares headers loosely when asked: case, spaces and underscores', () => {
    const plan = planColumns(
      ['Order ID', 'TRACKING_NUMBER', 'Carrier', 'Weight'],
      [{ field: 'order_id' }, { field: 'tracking_number' }, { field: 'carrier' }],
      { mappable: true, headerKey: looseHeaderKey, ignore: ['weight'] },
    );
    expect(plan.indexes).toEqual({ order_id: 0, tracking_number: 1, carrier: 2 });
    expect(() =>
      planColumns(['Order ID', 'order_id'], [{ field: 'order_id' }], {
        mappable: true,
        headerKey: looseHeaderKey,
      }),
    ).toThrow(/appears twice/);
  });

  it('parses --map pairs for the fields a file has', () => {
    expect(
      parseColumnMap(
        'order_id=Order Number, tracking_number = Tracking #',
        ['order_id', 'tracking_number'],
        'x',
      ),
    ).toEqual({ order_id: 'Order Number', tracking_number: 'Tracking #' });
    expect(() => parseColumnMap('weight=W', ['order_id'], 'order_id=Order')).toThrow(
      /--map takes field=Header pairs for order_id, e.g. --map order_id=Order; got "weight=W"/,
    );
  });

  it('without --map, tells to rename a lookalike column', () => {
    expect(() => planColumns(['sku', 'price', 'Qty'], FIELDS, { mappable: false })).toThrow(
      /; rename it to quantity, or --ignore Qty if it is meant to be left out$/,
    );
  });
});
