import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkShipmentsFile, isHttpUrl } from '../../../../src/core/orders/shipments.js';
import { UsageError } from '../../../../src/errors.js';
import { tempDir } from '../../../helpers/temp-dir.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'orders');
const fixture = (name: string) => join(FIXTURES, name);

async function usageError(path: string): Promise<UsageError> {
  const error = await checkShipmentsFile(path).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('checkShipmentsFile', () => {
  it('reads a file with a BOM, mixed-case headers, ; delimiter, extra columns, a multi-line cell and a blank line', async () => {
    const { shipments } = await checkShipmentsFile(fixture('shipments-ok.csv'));
    expect(shipments).toEqual([
      {
        line: 2,
        orderId: 'ord_A',
        trackingNumber: '1Z001',
        carrier: 'UPS',
        trackingUrl: 'https://www.ups.com/track?tracknum=1Z001',
      },
      // The quoted note spans lines 2-3 and line 4 is blank: physical line numbers.
      { line: 5, orderId: 'ord_B', trackingNumber: '9400111', carrier: 'USPS' },
      { line: 6, orderId: 'ord_C', trackingNumber: 'DHL77', carrier: 'DHL' },
    ]);
  });

  it('names every bad line: missing carrier, missing order id, an order twice, missing tracking, a bad URL', async () => {
    const error = await usageError(fixture('shipments-bad.csv'));
    expect(error.message).toMatch(/5 bad lines.*nothing was sent/);
    expect(error.details).toEqual([
      'line 3: missing carrier (order ord_B)',
      'line 4: missing order_id',
      'line 5: order ord_A appears twice (first on line 2)',
      'line 6: missing tracking_number (order ord_D)',
      'line 7: tracking_url "ftp://example.com/x" is not an http(s) URL (order ord_E)',
    ]);
  });

  it('says which header columns are missing', async () => {
    const error = await usageError(fixture('shipments-bad-header.csv'));
    expect(error.message).toContain('line 1');
    // "tracking" is read as tracking_number (a header shipping tools write); "order" is no field's.
    expect(error.message).toContain('no column is read as order_id;');
    expect(error.message).toContain('--map order_id=YourColumn');
  });

  it('reads headers ignoring case, spaces and underscores, and --map names the rest', async () => {
    const dir = tempDir('svc-shipments-');
    const shipstation = join(dir, 'shipstation.csv');
    writeFileSync(shipstation, 'Order ID,Tracking Number,Carrier,Weight\r\nord_A,1Z1,UPS,1 lb\r\n,,,\r\n');
    const { shipments, plan, emptyRows } = await checkShipmentsFile(shipstation);
    expect(shipments).toEqual([{ line: 2, orderId: 'ord_A', trackingNumber: '1Z1', carrier: 'UPS' }]);
    expect(emptyRows).toBe(1);
    expect(plan.ignored).toEqual(['Weight']);
    const own = join(dir, 'own.csv');
    writeFileSync(own, 'Order Number,Tracking No,Shipping Carrier\nord_A,1Z1,UPS\n');
    // Headers shipping tools write are read as the fields they hold, without --map.
    expect((await checkShipmentsFile(own)).plan.used).toEqual([
      { field: 'order_id', header: 'Order Number' },
      { field: 'tracking_number', header: 'Tracking No' },
      { field: 'carrier', header: 'Shipping Carrier' },
    ]);
    const mapped = await checkShipmentsFile(own, {
      map: { order_id: 'order number', tracking_number: 'TRACKING NO', carrier: 'Shipping Carrier' },
    });
    expect(mapped.shipments[0]).toMatchObject({ orderId: 'ord_A', trackingNumber: '1Z1', carrier: 'UPS' });
  });

  it('refuses an empty file and a header without rows', async () => {
    const dir = tempDir('svc-shipments-');
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    expect((await usageError(empty)).message).toContain('is empty');
    expect((await usageError(fixture('shipments-header-only.csv'))).message).toContain('no rows');
  });

  it('lists at most 50 bad lines, then counts the rest', async () => {
    const dir = tempDir('svc-shipments-');
    const path = join(dir, 'many.csv');
    const rows = Array.from({ length: 60 }, (_, i) => `ord_${i},T${i},`);
    writeFileSync(path, `order_id,tracking_number,carrier\n${rows.join('\n')}\n`);
    const error = await usageError(path);
    expect(error.details).toHaveLength(51);
    expect(error.details.at(-1)).toBe('… and 10 more');
  });
});

describe('checkShipmentsFile: what it cannot use as meant', () => {
  const dir = tempDir('svc-shipments-');
  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('names the columns it reads and leaves out', async () => {
    const path = write('plan.csv', 'order_id,tracking_number,carrier,weight\nord_1,T1,UPS,2kg\n');
    const { plan } = await checkShipmentsFile(path);
    expect(plan.used.map((column) => column.field)).toEqual(['order_id', 'tracking_number', 'carrier']);
    expect(plan.ignored).toEqual(['weight']);
  });

  it('refuses a left-out column that looks like the tracking URL, unless it is ignored on purpose', async () => {
    const path = write(
      'link.csv',
      'order_id,tracking_number,carrier,Track Link\nord_1,T1,UPS,https://t.example/1\n',
    );
    await expect(checkShipmentsFile(path)).rejects.toThrow(
      /the column "Track Link" looks like tracking_url.*use --map tracking_url='Track Link', or --ignore 'Track Link'/,
    );
    const { shipments } = await checkShipmentsFile(path, { ignore: ['track link'] });
    expect(shipments[0].trackingUrl).toBeUndefined();
  });

  it('refuses a header named twice, hidden characters in an id, and bytes that are not UTF-8', async () => {
    await expect(
      checkShipmentsFile(write('dup.csv', 'order_id,tracking_number,carrier,carrier\n')),
    ).rejects.toThrow(/"carrier" appears twice \(columns 3 and 4\)/);
    const hidden = await usageError(
      write('hidden.csv', 'order_id,tracking_number,carrier\nord_1\u200B,T1,UPS\n'),
    );
    expect(hidden.details).toEqual([
      expect.stringMatching(/^line 2: order_id "ord_1\\u\{200B\}" holds an invisible/),
    ]);
    const latin1 = Buffer.concat([
      Buffer.from('order_id,tracking_number,carrier\nord_1,T1,'),
      Buffer.from([0x50, 0x6f, 0x73, 0x74, 0xe9]),
      Buffer.from('\n'),
    ]);
    const notUtf8 = await usageError(write('latin1.csv', latin1));
    expect(notUtf8.details).toEqual(['line 2: not UTF-8 text (byte 0xE9)']);
    expect(notUtf8.message).toContain('--encoding latin1');
    const { shipments } = await checkShipmentsFile(write('latin1-ok.csv', latin1), { encoding: 'latin1' });
    expect(shipments[0].carrier).toBe('Posté');
  });
});

describe('isHttpUrl', () => {
  it('accepts http and https URLs only', () => {
    expect(isHttpUrl('https://example.com/t/1')).toBe(true);
    expect(isHttpUrl('http://example.com')).toBe(true);
    expect(isHttpUrl('ftp://example.com')).toBe(false);
    expect(isHttpUrl('example.com/track')).toBe(false);
  });
});
