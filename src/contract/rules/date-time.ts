/**
 * RFC 3339 date-times, as the service reads them (query filters, `expected_updated_at`): a
 * real calendar date, a time of day up to 23:59:59, fractions optional, and an offset (`Z` or
 * `±hh:mm`) always. Date.parse is looser (it rolls `2026-02-30` into March, takes `T24:00`,
 * reads a time without an offset as local), so the emulator checks with this first.
 */

const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** The Unix milliseconds of an RFC 3339 date-time, or undefined for anything else. */
export function parseDateTime(text: string): number | undefined {
  const match = RFC_3339.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const offsetHours = match[8] === undefined ? 0 : Number(match[8]);
  const offsetMinutes = match[9] === undefined ? 0 : Number(match[9]);
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  if (!valid) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

/** True for an RFC 3339 date-time with an offset. */
export function isDateTime(text: string): boolean {
  return parseDateTime(text) !== undefined;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
