/**
 * The guard against the classic multichannel disaster: a broken spreadsheet export that sets
 * every quantity to 0 and takes the store off every channel at once. A push that would set
 * more than ZEROING_SHARE of the SKUs it covers to 0 stops before sending.
 * (docs/guide.md, A guard against zeroing the store)
 */

/** Share of the SKUs a push covers that it may set to 0 before it stops to ask. */
const ZEROING_SHARE = 0.2;
/**
 * Judged on the file alone, files with fewer rows are left alone (a small file's zeros are
 * likely meant). A live read knows which SKUs really go to 0, so it needs no such floor.
 */
export const ZEROING_MIN_ROWS = 50;

/** A push that would zero too much: how many of how many, and whether that is known or judged on the file. */
export interface ZeroingRisk {
  zeroed: number;
  of: number;
  /** True when the live values were read (the count is exact); false when judged on the file alone. */
  exact: boolean;
}

/**
 * Exact, from the live read: `zeroed` SKUs go to 0 from another quantity, out of `known`
 * rows whose SKU the store has (the SKUs the push covers: a changed-only push leaves the rest
 * as the file says they are already).
 */
export function exactZeroingRisk(zeroed: number, known: number): ZeroingRisk | undefined {
  return known > 0 && tooMuch(zeroed, known) ? { zeroed, of: known, exact: true } : undefined;
}

/** Without the live values: `zeroRows` of the file's `rows` say quantity 0. */
export function fileZeroingRisk(zeroRows: number, rows: number): ZeroingRisk | undefined {
  return rows >= ZEROING_MIN_ROWS && tooMuch(zeroRows, rows)
    ? { zeroed: zeroRows, of: rows, exact: false }
    : undefined;
}

function tooMuch(zeroed: number, of: number): boolean {
  return zeroed > of * ZEROING_SHARE;
}

/** The risk in words: "this push would set 412 of 1,000 SKUs (41%) to quantity 0, more than 20%". */
export function describeZeroing(risk: ZeroingRisk): string {
  const share = Math.round((risk.zeroed / risk.of) * 100);
  const count = `${risk.zeroed.toLocaleString('en-US')} of ${risk.of.toLocaleString('en-US')}`;
  const limit = `more than ${Math.round(ZEROING_SHARE * 100)}%`;
  return risk.exact
    ? `this push would set ${count} SKUs (${share}%) to quantity 0, ${limit}`
    : `${count} rows of the file (${share}%) set quantity 0, ${limit}`;
}
