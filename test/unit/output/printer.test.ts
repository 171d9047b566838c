import { Writable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/contract/schemas/order.js';
import { CrawlInterrupted } from '../../../src/errors.js';
import type { IO } from '../../../src/output/io.js';
import { Printer } from '../../../src/output/printer.js';
import { compileQuery } from '../../../src/output/query.js';
import type { OutputFormat, OutputSettings, View } from '../../../src/output/view.js';
import { ordersView } from '../../../src/output/views/orders.js';
import { memoryIO } from '../../helpers/memory-io.js';

const NOW = Date.parse('2026-11-10T12:00:00.000Z');

function setup(format: OutputFormat, extra: Partial<OutputSettings> = {}) {
  const io = memoryIO(format === 'table');
  return { io, printer: new Printer(io, { format, quiet: false, color: false, now: NOW, ...extra }) };
}

async function* from<T>(items: T[], failAfter?: Error): AsyncGenerator<T> {
  for (const item of items) yield item;
  if (failAfter) throw failAfter;
}

interface Thing {
  id: string;
  name: string;
  buyer?: { country?: string };
  tags?: string[];
}

const things: Thing[] = [
  { id: 't_1', name: 'Mug, "blue"', buyer: { country: 'FR' }, tags: ['a', 'b'] },
  { id: 't_2', name: 'Plate', buyer: {}, tags: [] },
];

const thingView: View<Thing> = {
  columns: [
    { header: 'ID', cell: (t) => t.id },
    { header: 'NAME', cell: (t) => t.name },
  ],
  fields: ['id', 'name', 'buyer.country', 'tags'],
};

/** A view with no default fields: columns come from the first item. */
const genericView: View<unknown> = { columns: [], fields: [] };

const orders: Order[] = [
  {
    id: 'ord_1',
    object: 'order',
    channel_account_id: 'ca_1',
    channel: 'etsy',
    order_id_on_channel: 'E-100',
    status: 'awaiting_shipment',
    currency: 'EUR',
    total: '30.00',
    buyer: { name: 'Ann', email: 'ann@example.com', country: 'FR' },
    lines: [
      { sku: 'MUG-1', title: 'Mug, blue', quantity: 2, price: '10.00' },
      { sku: 'PLATE-1', title: 'Plate', quantity: 1, price: '10.00' },
    ],
    created_at: '2026-11-10T09:00:00Z',
  },
  {
    id: 'ord_2',
    object: 'order',
    channel_account_id: 'ca_2',
    channel: 'ebay',
    status: 'shipped',
    tracking: { number: 'TRK9', carrier: 'ups' },
    lines: [],
    created_at: '2026-11-08T12:00:00Z',
  },
];

describe('Printer.list as json', () => {
  it('prints one valid JSON array of the items', async () => {
    const { io, printer } = setup('json');
    expect(await printer.list(from(things), thingView)).toBe(2);
    expect(JSON.parse(io.out())).toEqual(things);
  });

  it('prints [] for an empty list', async () => {
    const { io, printer } = setup('json');
    expect(await printer.list(from([]), thingView)).toBe(0);
    expect(io.out()).toBe('[]\n');
  });

  it('closes the array when the crawl fails midway, then reports how far it got', async () => {
    const { io, printer } = setup('json');
    const cause = new Error('connection reset');
    const failure = await printer.list(from(things, cause), thingView).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CrawlInterrupted);
    expect((failure as CrawlInterrupted).written).toBe(2);
    expect((failure as CrawlInterrupted).cause).toBe(cause);
    expect((failure as CrawlInterrupted).message).toBe('connection reset');
    expect(JSON.parse(io.out())).toEqual(things);
  });

  it('prints nothing when the crawl fails before the first item: [] would read as "none"', async () => {
    const { io, printer } = setup('json');
    const failure = await printer
      .list(from([], new Error('401')), thingView)
      .catch((error: unknown) => error);
    expect((failure as CrawlInterrupted).written).toBe(0);
    expect(io.out()).toBe('');
  });

  it('keeps only --fields, nested as in the item', async () => {
    const { io, printer } = setup('json', { fields: ['id', 'buyer.country'] });
    await printer.list(from(things), thingView);
    expect(JSON.parse(io.out())).toEqual([{ id: 't_1', buyer: { country: 'FR' } }, { id: 't_2' }]);
  });

  it('leaves out of tables, csv and tsv what the view hides in text; json carries the item as given', async () => {
    const hiding: View<Thing> = {
      ...thingView,
      fields: [],
      hideInText: ({ buyer: _buyer, ...rest }) => rest,
    };
    for (const format of ['csv', 'tsv', 'table'] as const) {
      const { io, printer } = setup(format, { fields: undefined });
      await printer.list(from(things), hiding);
      expect(io.out(), format).not.toContain('FR');
    }
    const { io, printer } = setup('json');
    await printer.list(from(things), hiding);
    const printed = JSON.parse(io.out()) as Thing[];
    expect(printed.map((t) => t.buyer)).toEqual([{ country: 'FR' }, {}]);
  });

  it('prints whole orders, not a row per line', async () => {
    const { io, printer } = setup('json');
    await printer.list(from(orders), ordersView(false));
    expect(JSON.parse(io.out())).toEqual(orders);
  });
});

describe('Printer.list as ndjson', () => {
  it('prints one JSON object per line', async () => {
    const { io, printer } = setup('ndjson');
    await printer.list(from(things), thingView);
    const lines = io.out().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines.slice(0, 2).map((line) => JSON.parse(line))).toEqual(things);
  });

  it('prints nothing for an empty list', async () => {
    const { io, printer } = setup('ndjson');
    await printer.list(from([]), thingView);
    expect(io.out()).toBe('');
  });

  it('keeps the lines already written when the crawl fails', async () => {
    const { io, printer } = setup('ndjson');
    const failure = await printer
      .list(from(things.slice(0, 1), new Error('boom')), thingView)
      .catch((e: unknown) => e);
    expect((failure as CrawlInterrupted).written).toBe(1);
    expect(io.out()).toBe(`${JSON.stringify(things[0])}\n`);
  });

  it('keeps only --fields', async () => {
    const { io, printer } = setup('ndjson', { fields: ['name'] });
    await printer.list(from(things), thingView);
    expect(io.out()).toBe('{"name":"Mug, \\"blue\\""}\n{"name":"Plate"}\n');
  });
});

describe('Printer.list as csv', () => {
  it("prints a header of the view's dot-path fields, then one RFC 4180 row per item", async () => {
    const { io, printer } = setup('csv');
    await printer.list(from(things), thingView);
    expect(io.out()).toBe(
      'id,name,buyer.country,tags\nt_1,"Mug, ""blue""",FR,"[""a"",""b""]"\nt_2,Plate,,[]\n',
    );
    expect(parseCsv(io.out())).toEqual([
      ['id', 'name', 'buyer.country', 'tags'],
      ['t_1', 'Mug, "blue"', 'FR', '["a","b"]'],
      ['t_2', 'Plate', '', '[]'],
    ]);
  });

  it('uses --fields as the columns', async () => {
    const { io, printer } = setup('csv', { fields: ['buyer.country', 'id'] });
    await printer.list(from(things), thingView);
    expect(io.out()).toBe('buyer.country,id\nFR,t_1\n,t_2\n');
  });

  it('prints the header alone for an empty list', async () => {
    const { io, printer } = setup('csv');
    expect(await printer.list(from([]), thingView)).toBe(0);
    expect(io.out()).toBe('id,name,buyer.country,tags\n');
  });

  it('prints the --fields header for an empty list', async () => {
    const { io, printer } = setup('csv', { fields: ['id', 'status'] });
    await printer.list(from([]), genericView);
    expect(io.out()).toBe('id,status\n');
  });

  it("takes a generic view's columns from the first item's leaf paths", async () => {
    const { io, printer } = setup('csv');
    await printer.list(from([{ id: 'x', buyer: { country: 'DE' }, lines: [1, 2] }]), genericView);
    expect(parseCsv(io.out())).toEqual([
      ['id', 'buyer.country', 'lines'],
      ['x', 'DE', '[1,2]'],
    ]);
  });

  it('prints a row per order by default, without the line columns', async () => {
    const { io, printer } = setup('csv');
    expect(await printer.list(from(orders), ordersView(false))).toBe(2);
    const [header, ...rows] = parseCsv(io.out()) as string[][];
    expect(header).not.toContain('lines.sku');
    expect(rows.map((row) => row[0])).toEqual(['ord_1', 'ord_2']);
  });

  it('with --per-line, prints a row per order line, the order columns repeated', async () => {
    const { io, printer } = setup('csv');
    expect(await printer.list(from(orders), ordersView(false, true))).toBe(2);
    const [header, ...rows] = parseCsv(io.out()) as string[][];
    expect(header).toEqual([
      'id',
      'channel',
      'channel_account_id',
      'order_id_on_channel',
      'status',
      'fulfillment_status',
      'source_status',
      'currency',
      'total',
      'buyer.country',
      'tracking.number',
      'tracking.carrier',
      'created_at',
      'updated_at',
      'lines.sku',
      'lines.title',
      'lines.quantity',
      'lines.price',
      'lines.product_id',
    ]);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(rows).toHaveLength(3);
    expect(column('id')).toEqual(['ord_1', 'ord_1', 'ord_2']);
    expect(column('total')).toEqual(['30.00', '30.00', '']);
    expect(column('buyer.country')).toEqual(['FR', 'FR', '']);
    expect(column('lines.sku')).toEqual(['MUG-1', 'PLATE-1', '']);
    expect(column('lines.title')).toEqual(['Mug, blue', 'Plate', '']);
    expect(column('lines.quantity')).toEqual(['2', '1', '']);
    expect(column('tracking.number')).toEqual(['', '', 'TRK9']);
  });

  it('keeps buyer personal data out of the default columns unless asked', async () => {
    const hidden = setup('csv');
    await hidden.printer.list(from(orders), ordersView(false));
    expect(hidden.io.out()).not.toContain('ann@example.com');
    expect(hidden.io.out()).not.toContain('buyer.email');

    const shown = setup('csv');
    await shown.printer.list(from(orders), ordersView(true));
    const [header, first] = parseCsv(shown.io.out()) as string[][];
    expect(first[header.indexOf('buyer.email')]).toBe('ann@example.com');
    expect(first[header.indexOf('buyer.name')]).toBe('Ann');
  });
});

describe('Printer.list as tsv', () => {
  it('prints a tab-separated header and rows, one line each', async () => {
    const { io, printer } = setup('tsv');
    const multiline: Thing = { id: 't_3', name: 'two\nlines\tand a tab' };
    await printer.list(from([...things, multiline]), thingView);
    expect(io.out()).toBe(
      'id\tname\tbuyer.country\ttags\n' +
        't_1\tMug, "blue"\tFR\t["a","b"]\n' +
        't_2\tPlate\t\t[]\n' +
        't_3\ttwo\\nlines\\tand a tab\t\t\n',
    );
  });

  it('prints a row per order line', async () => {
    const { io, printer } = setup('tsv', { fields: ['id', 'lines.sku'] });
    await printer.list(from(orders), ordersView(false));
    expect(io.out()).toBe('id\tlines.sku\nord_1\tMUG-1\nord_1\tPLATE-1\nord_2\t\n');
  });

  it('prints the header alone for an empty list', async () => {
    const { io, printer } = setup('tsv');
    await printer.list(from([]), thingView);
    expect(io.out()).toBe('id\tname\tbuyer.country\ttags\n');
  });
});

describe('Printer.list as table', () => {
  it("renders the view's headers and cells", async () => {
    const { io, printer } = setup('table');
    await printer.list(from(things), thingView);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ID\s+NAME$/);
    expect(lines[1]).toMatch(/^t_1\s+Mug, "blue"$/);
    expect(lines[2]).toMatch(/^t_2\s+Plate$/);
    // columns line up
    expect(lines[1].indexOf('Mug')).toBe(lines[0].indexOf('NAME'));
  });

  it('renders order columns computed from the clock', async () => {
    const { io, printer } = setup('table');
    await printer.list(from(orders), ordersView(false));
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'ID',
      'CHANNEL',
      'ORDER ON CHANNEL',
      'STATUS',
      'TOTAL',
      'ITEMS',
      'COUNTRY',
      'AGE',
    ]);
    expect(lines[1].split(/\s{2,}/)).toEqual([
      'ord_1',
      'etsy',
      'E-100',
      'awaiting_shipment',
      '30.00 EUR',
      '3',
      'FR',
      '3h',
    ]);
    expect(lines[2]).toMatch(/^ord_2\s+ebay\s+shipped\s+0\s+2d$/);
    expect(io.out()).not.toContain('ann@example.com');
  });

  it('uses --fields as columns, a row per order line', async () => {
    const { io, printer } = setup('table', { fields: ['id', 'lines.sku'] });
    await printer.list(from(orders), ordersView(false));
    const lines = io.out().trimEnd().split('\n');
    expect(lines.map((line) => line.split(/\s+/))).toEqual([
      ['id', 'lines.sku'],
      ['ord_1', 'MUG-1'],
      ['ord_1', 'PLATE-1'],
      ['ord_2'],
    ]);
  });

  it('keeps a cell with a line break on one line', async () => {
    const { io, printer } = setup('table');
    await printer.list(from([{ id: 't_9', name: 'a\nb' }]), thingView);
    expect(io.out().trimEnd().split('\n')).toHaveLength(2);
  });

  it('shows what it collected before a failure, then reports it', async () => {
    const { io, printer } = setup('table');
    const failure = await printer
      .list(from(things.slice(0, 1), new Error('boom')), thingView)
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CrawlInterrupted);
    expect((failure as CrawlInterrupted).written).toBe(1);
    expect(io.out()).toContain('t_1');
  });
});

describe('Printer.item', () => {
  const order = orders[0];

  it('prints pretty JSON with --json', async () => {
    const { io, printer } = setup('json');
    await printer.item(order);
    expect(io.out()).toBe(`${JSON.stringify(order, null, 2)}\n`);
  });

  it('keeps only --fields in json', async () => {
    const { io, printer } = setup('json', { fields: ['id', 'buyer.country'] });
    await printer.item(order);
    expect(JSON.parse(io.out())).toEqual({ id: 'ord_1', buyer: { country: 'FR' } });
  });

  it('prints one line with ndjson', async () => {
    const { io, printer } = setup('ndjson');
    await printer.item(order);
    expect(io.out()).toBe(`${JSON.stringify(order)}\n`);
  });

  it('prints a header and one row in csv', async () => {
    const { io, printer } = setup('csv', { fields: ['id', 'buyer.country', 'lines'] });
    await printer.item(order);
    expect(parseCsv(io.out())).toEqual([
      ['id', 'buyer.country', 'lines'],
      ['ord_1', 'FR', JSON.stringify(order.lines)],
    ]);
  });

  it('shows the summary on a terminal', async () => {
    const { io, printer } = setup('table');
    await printer.item(order, {
      summary: (o, now) => `Order ${o.id}, ${now === NOW ? 'clock passed' : 'wrong clock'}`,
    });
    expect(io.out()).toBe('Order ord_1, clock passed\n');
  });

  it('prints a vertical table with nested paths and a table of lines without a summary', async () => {
    const { io, printer } = setup('table');
    await printer.item(order);
    const text = io.out();
    expect(text).toMatch(/^id\s+ord_1$/m);
    expect(text).toMatch(/^status\s+awaiting_shipment$/m);
    expect(text).toMatch(/^buyer\.country\s+FR$/m);
    expect(text).toMatch(/^lines:$/m);
    expect(text).toMatch(/^sku\s+title\s+quantity\s+price$/m);
    expect(text).toMatch(/^MUG-1\s+Mug, blue\s+2\s+10\.00$/m);
  });

  it('prefers the vertical table over the summary when --fields is given', async () => {
    const { io, printer } = setup('table', { fields: ['id', 'status'] });
    await printer.item(order, { summary: () => 'SUMMARY' });
    expect(io.out()).not.toContain('SUMMARY');
    expect(io.out().trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^id\s+ord_1$/),
      expect.stringMatching(/^status\s+awaiting_shipment$/),
    ]);
  });
});

describe('Printer.text', () => {
  it('writes one line to stdout and nothing to stderr', async () => {
    const { io, printer } = setup('json');
    await printer.text('whsec_shown_once');
    expect(io.out()).toBe('whsec_shown_once\n');
    expect(io.err()).toBe('');
  });
});

describe('Printer with a slow consumer', () => {
  it('waits for drain and loses nothing', async () => {
    const chunks: string[] = [];
    const slow = new Writable({
      highWaterMark: 8,
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        setImmediate(done);
      },
    });
    const io: IO = { ...memoryIO(), stdout: slow };
    const items = Array.from({ length: 200 }, (_, i) => ({ id: `t_${i}`, name: 'x'.repeat(20) }));
    const p = new Printer(io, { format: 'ndjson', quiet: false, color: false, now: NOW });
    expect(await p.list(from(items), thingView)).toBe(200);
    expect(slow.writableLength).toBe(0);
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(items.map((i) => i.id));
  });
});

describe('Printer with --query, --no-headers and a terminal', () => {
  it('runs the query over the whole list, then prints scalars one a line', async () => {
    const query = await compileQuery('[].id');
    const { io, printer } = setup('tsv', { query });
    expect(await printer.list(from(things), thingView)).toBe(2);
    expect(io.out()).toBe('t_1\nt_2\n');
  });

  it('prints flat objects in the format, anything nested as JSON', async () => {
    const flat = setup('csv', { query: await compileQuery('[].{id: id, name: name}') });
    await flat.printer.list(from(things), thingView);
    expect(flat.io.out()).toBe('id,name\nt_1,"Mug, ""blue"""\nt_2,Plate\n');
    const nested = setup('tsv', { query: await compileQuery('[0].buyer') });
    await nested.printer.list(from(things), thingView);
    expect(JSON.parse(nested.io.out())).toEqual({ country: 'FR' });
    const one = setup('json', { query: await compileQuery('length(@)') });
    await one.printer.list(from(things), thingView);
    expect(one.io.out()).toBe('2\n');
  });

  it('--no-headers drops the header line', async () => {
    const { io, printer } = setup('csv', { headers: false, fields: ['id'] });
    await printer.list(from(things), thingView);
    expect(io.out()).toBe('t_1\nt_2\n');
  });

  it('on a terminal a json list is indented like an item', async () => {
    const { io, printer } = setup('json', { pretty: true, fields: ['id'] });
    await printer.list(from(things), thingView);
    expect(io.out()).toBe('[\n  {\n    "id": "t_1"\n  },\n  {\n    "id": "t_2"\n  }\n]\n');
  });

  it('a table cut to the width keeps the ids whole', async () => {
    const { io, printer } = setup('table', { width: 20 });
    await printer.list(from([{ id: 't_0123456789', name: 'A rather long name indeed' }]), {
      ...thingView,
      columns: [
        { header: 'ID', cell: (t) => t.id },
        { header: 'NAME', cell: (t) => t.name, shrink: true },
      ],
    });
    const lines = io.out().trimEnd().split('\n');
    // The name keeps its 8 characters at least; the id is never cut.
    expect(lines[1]).toMatch(/^t_0123456789 {2}A rathe…$/);
  });
});

describe('Printer: csv for spreadsheets (--excel)', () => {
  const risky = [
    { id: 't_1', name: '=HYPERLINK("http://x")', buyer: { country: 'FR' }, tags: [] },
    { id: 't_2', name: '-5', buyer: {}, tags: [] },
  ];
  it('starts with one BOM and keeps formula-shaped cells as text', async () => {
    const { io, printer } = setup('csv', { excel: true });
    await printer.list(from(risky), thingView);
    expect(io.out()).toBe(
      '\uFEFFid,name,buyer.country,tags\nt_1,"\'=HYPERLINK(""http://x"")",FR,[]\nt_2,\'-5,,[]\n',
    );
  });
  it('without --excel, csv stays exact; --no-headers puts the BOM before the first row', async () => {
    const plain = setup('csv');
    await plain.printer.list(from(risky), thingView);
    expect(plain.io.out()).toBe(
      'id,name,buyer.country,tags\nt_1,"=HYPERLINK(""http://x"")",FR,[]\nt_2,-5,,[]\n',
    );
    const bare = setup('csv', { excel: true, headers: false });
    await bare.printer.list(from(risky.slice(1)), thingView);
    expect(bare.io.out()).toBe("\uFEFFt_2,'-5,,[]\n");
  });
  it('flattens an object --fields names whole into the fields its schema gives', async () => {
    const { io, printer } = setup('tsv', {
      fields: ['id', 'buyer'],
      knownFields: ['id', 'buyer', 'buyer.country', 'buyer.name'],
    });
    await printer.list(from(things), thingView);
    expect(io.out()).toBe('id\tbuyer.country\tbuyer.name\nt_1\tFR\t\nt_2\t\t\n');
  });
});
