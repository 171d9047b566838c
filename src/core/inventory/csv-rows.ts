/**
 * The rows of an inventory CSV as the guide's input files say: header row, `sku` plus
 * `quantity` and/or `price`, `--map` renames, `--ignore` leaves columns out, case-insensitive
 * trimmed headers, a decimal comma where the file or `--decimal-comma` says (the reading itself
 * is core/csv/reader.ts).
 */
import { QUANTITY_MAX } from '../../contract/contract.js';
import { type InputProblem, UsageError } from '../../errors.js';
import {
  type ColumnPlan,
  exactHeaderKey,
  type FieldSpec,
  mapSuggestion,
  parseColumnMap as parseMap,
  planColumns,
  quoted,
} from '../csv/columns.js';
import { isPlainKey, keyTextProblem } from '../csv/text.js';

/** One row as it will be sent: an omitted field is left unchanged. */
export interface InventoryRow {
  /** Physical line where the record starts (header = 1). */
  line: number;
  sku: string;
  quantity?: number;
  price?: string;
}

/** A row that cannot be sent, and why. */
export type RowProblem = InputProblem;

/** The file's columns after `--map`: which physical column holds each field, and how prices are written. */
export interface ColumnIndexes {
  sku: number;
  quantity?: number;
  price?: number;
  /** A single `,` is a decimal separator too (`28,37`): a `;` file, or --decimal-comma. */
  decimalComma?: boolean;
}

const FIELDS = ['sku', 'quantity', 'price'] as const;
type Field = (typeof FIELDS)[number];

/** Header words of a column that may hold the SKU: the --map an error suggests when none is read as it. */
const SKU_LOOKALIKES = [
  'sku',
  'item',
  'itemcode',
  'article',
  'artikel',
  'code',
  'productcode',
  'partnumber',
  'reference',
];

/** The fields and the header words that give away a column meant as one of them. */
const FIELD_SPECS: readonly FieldSpec[] = [
  {
    field: 'sku',
    // Headers shops, marketplaces and spreadsheets in several languages give the SKU column.
    aliases: [
      'Item SKU',
      'Variant SKU',
      'Seller SKU',
      'Merchant SKU',
      'Product SKU',
      'SKU Code',
      'Artikelnummer',
    ],
  },
  {
    field: 'quantity',
    aliases: [
      'Qty',
      'Stock',
      'Stock Level',
      'On Hand',
      'Qty On Hand',
      'Quantity On Hand',
      'Available',
      'Available Quantity',
      'Quantity Available',
      'Inventory',
      'Bestand',
      'Menge',
      'Quantité',
      'Stock disponible',
      'Cantidad',
      'Quantità',
      'Voorraad',
    ],
    lookalikes: [
      'qty',
      'quantity',
      'quantities',
      'stock',
      'onhand',
      'on_hand',
      'available',
      'availability',
      'avail',
      'inventory',
      'inv',
      'count',
      'units',
      'amount',
      'level',
      'soh',
      'qoh',
    ],
  },
  {
    field: 'price',
    aliases: [
      'Unit Price',
      'Sale Price',
      'Selling Price',
      'Retail Price',
      'Regular Price',
      'Preis',
      'Verkaufspreis',
      'Prix',
      'Prix de vente',
      'Precio',
      'Prezzo',
      'Prijs',
    ],
    lookalikes: [
      'price',
      'prices',
      'pricing',
      'cost',
      'amount',
      'msrp',
      'rrp',
      'retail',
      'saleprice',
      'sale_price',
      'unitprice',
      'listprice',
    ],
  },
];

/** Parses `--map sku=Item,quantity=Qty` into field → header name (lower-cased, trimmed). */
export function parseColumnMap(raw: string | undefined): Partial<Record<Field, string>> {
  const map = parseMap(raw, FIELDS, 'sku=Item,quantity=Qty');
  return Object.fromEntries(Object.entries(map).map(([field, header]) => [field, header.toLowerCase()]));
}

/** Finds each field's column in the header (with the plan of used and ignored columns), or says what is wrong. */
export function resolveColumns(
  header: string[],
  map: Partial<Record<Field, string>>,
  ignore: readonly string[] = [],
): { columns: ColumnIndexes; plan: ColumnPlan } {
  const plan = planColumns(header, FIELD_SPECS, { map, ignore, mappable: true });
  if (plan.indexes.sku === undefined) throw noSkuColumn(header, plan, ignore);
  const { sku, quantity, price } = plan.indexes;
  if (quantity === undefined && price === undefined) {
    throw new UsageError(
      'line 1: the header needs a "quantity" or a "price" column (or --map quantity=…, price=…)',
    );
  }
  return { columns: { sku: sku as number, quantity, price }, plan };
}

/**
 * No column is read as the SKU: the error quotes the header found and the --map to write (a
 * column that looks like a SKU, else the first one left out).
 */
function noSkuColumn(header: readonly string[], plan: ColumnPlan, ignore: readonly string[]): UsageError {
  const has = header.map((cell) => `"${cell.trim()}"`).join(', ');
  const ignored = ignore.some((name) => exactHeaderKey(name) === 'sku') ? ' ("sku" is in --ignore)' : '';
  const spec = { field: 'sku', lookalikes: SKU_LOOKALIKES };
  const candidate = plan.ignored.find(
    (name) => !ignore.some((left) => exactHeaderKey(left) === exactHeaderKey(name)),
  );
  const map =
    mapSuggestion(header, plan, [spec]) ??
    (candidate ? `--map sku=${quoted(candidate)}` : '--map sku=YourColumn');
  return new UsageError(
    `line 1: no column is read as sku${ignored}; the header has ${has}: name it with ${map}`,
  );
}

/** Turns one record into a row, or the reason it is bad. */
export function toRow(record: string[], line: number, columns: ColumnIndexes): InventoryRow | RowProblem {
  const sku = record[columns.sku] ?? '';
  // A million-row file checks a million SKUs: the common one skips the regular expressions.
  if (!isPlainKey(sku)) {
    if (sku.trim() === '') return { line, code: 'missing_sku', message: 'missing SKU' };
    const text = keyTextProblem('SKU', sku);
    if (text) return { line, key: sku, code: 'invalid_sku', message: text };
  }
  const row: InventoryRow = { line, sku };
  const rawQuantity = columns.quantity === undefined ? '' : trimmed(record[columns.quantity]);
  const rawPrice = columns.price === undefined ? '' : trimmed(record[columns.price]);
  if (rawQuantity !== '') {
    if (!isDigits(rawQuantity) || Number(rawQuantity) > QUANTITY_MAX) {
      return {
        line,
        key: sku,
        code: 'invalid_quantity',
        message: `quantity "${rawQuantity}" is not a whole number from 0 to ${QUANTITY_MAX}${/^[0-9]{1,3}([,.][0-9]{3})+$/.test(rawQuantity) ? `: remove the thousands separator (${rawQuantity.replace(/[,.]/g, '')})` : ''} (SKU ${sku})`,
      };
    }
    row.quantity = Number(rawQuantity);
  }
  if (rawPrice !== '') {
    if (isPrice(rawPrice)) row.price = rawPrice;
    else {
      const price = unusualPrice(rawPrice, columns.decimalComma === true);
      if (price.problem)
        return { line, key: sku, code: 'invalid_price', message: `${price.problem} (SKU ${sku})` };
      row.price = price.value;
    }
  }
  if (row.quantity === undefined && row.price === undefined) {
    return { line, key: sku, code: 'no_value', message: `neither quantity nor price is given (SKU ${sku})` };
  }
  return row;
}

/**
 * A price that is not digits with perhaps a point: with a decimal comma, `28,37` as `28.37`;
 * else the reason it is refused, a thousands separator (`1.234,56`, `1,299.00`) by name.
 */
function unusualPrice(
  raw: string,
  decimalComma: boolean,
): { value: string; problem?: undefined } | { value?: undefined; problem: string } {
  if (CURRENCY.test(raw)) {
    const bare = raw.replace(CURRENCY_ALL, '').trim();
    return {
      problem: `price "${raw}" holds a currency sign: remove the currency sign (format the column as Number)${/^[0-9.,]+$/.test(bare) ? `, so that it reads ${bare}` : ''}`,
    };
  }
  const separators = raw.replace(/[^.,]/g, '').length;
  const onlyDigitsBeside = /^[0-9.,]+$/.test(raw);
  if (onlyDigitsBeside && separators > 1) return { problem: thousandsProblem(raw, decimalComma) };
  if (onlyDigitsBeside && separators === 1 && raw.includes(',')) {
    const value = raw.replace(',', '.');
    if (decimalComma && isPrice(value)) return { value };
    if (/^[0-9]{1,3},[0-9]{3}$/.test(raw))
      return {
        problem: `price "${raw}" looks like a thousands separator: remove the thousands separator (${raw.replace(',', '')}), or run again with --decimal-comma if it means ${value}`,
      };
    if (isPrice(value)) {
      return {
        problem: `price "${raw}" has a decimal comma; run again with --decimal-comma (or write ${value})`,
      };
    }
  }
  return { problem: `price "${raw}" is not a non-negative decimal such as 12.50` };
}

/** Currency signs and codes spreadsheets format prices with. */
const CURRENCY = /[$€£¥₹₽]|\b(?:USD|EUR|GBP|CHF|CAD|AUD|SEK|NOK|DKK|PLN)\b/i;
const CURRENCY_ALL = new RegExp(CURRENCY.source, 'gi');

/**
 * Why a price with more than one separator is refused, with the fix: `1.234,56` needs its
 * thousands separator removed, then the decimal comma read (`--decimal-comma`, or a `;` file);
 * `1,234.56` needs only the thousands separator removed.
 */
function thousandsProblem(raw: string, decimalComma: boolean): string {
  const head = `price "${raw}" holds a thousands separator: remove the thousands separator`;
  if (/^[0-9]{1,3}(\.[0-9]{3})+,[0-9]+$/.test(raw)) {
    const plain = raw.replace(/\./g, '');
    return decimalComma
      ? `${head} (${plain}, which this file's decimal comma reads as ${plain.replace(',', '.')})`
      : `${head} and run again with --decimal-comma (${plain} then reads as ${plain.replace(',', '.')})`;
  }
  if (/^[0-9]{1,3}(,[0-9]{3})+\.[0-9]+$/.test(raw) || /^[0-9]{1,3}(,[0-9]{3})+$/.test(raw))
    return `${head} (${raw.replace(/,/g, '')})`;
  return `${head}; one "." (or "," with --decimal-comma) marks the decimals`;
}

/** A cell without the spaces around it ('' for a missing one); a cell without any is returned as it is. */
function trimmed(cell: string | undefined): string {
  if (cell === undefined || cell === '') return '';
  return isVisibleAscii(cell.charCodeAt(0)) && isVisibleAscii(cell.charCodeAt(cell.length - 1))
    ? cell
    : cell.trim();
}

/** No whitespace of any kind is printable ASCII other than the space. */
function isVisibleAscii(unit: number): boolean {
  return unit > 0x20 && unit < 0x7f;
}

/** Whether `text` is one or more ASCII digits (/^\d+$/ without the regular expression). */
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x30 || unit > 0x39) return false;
  }
  return true;
}

/** PRICE_PATTERN (digits, then perhaps a point and digits) without the regular expression. */
function isPrice(text: string): boolean {
  let point = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0x2e && point < 0) point = i;
    else if (unit < 0x30 || unit > 0x39) return false;
  }
  return point !== 0 && point !== text.length - 1 && text.length > 0;
}
