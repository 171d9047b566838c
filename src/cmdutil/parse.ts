/** Parsers for flag values: each throws a message that names the flag and a valid example. */
import { InvalidArgumentError } from 'commander';
import { profileNameProblem } from '../config/credentials.js';
import { UsageError } from '../errors.js';
import { parseSeconds, secondsRange } from '../seconds.js';

/** A whole number within bounds, for --limit, --max-retries, --batch-size… */
export function integerFlag(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
      throw new InvalidArgumentError(
        `${flag} takes a whole number ${range}, e.g. ${flag} ${Math.max(min, 1)}`,
      );
    }
    return Number(raw);
  };
}

/** A profile name (--profile): never one that looks like an API key. */
export function profileFlag(raw: string): string {
  const problem = profileNameProblem(raw, '--profile');
  // A UsageError, not commander's: its message would quote the value, a key pasted in the wrong place.
  if (problem) throw new UsageError(problem);
  return raw;
}

/** A positive number, for rates. */
export function positiveNumberFlag(flag: string) {
  return (raw: string): number => {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value <= 0) {
      throw new InvalidArgumentError(`${flag} takes a positive number, e.g. ${flag} 4`);
    }
    return value;
  };
}

export { MAX_WAIT_SECONDS } from '../seconds.js';

/** A flag of seconds (see parseSeconds). */
export function secondsFlag(flag: string, min = 0) {
  return (raw: string): number => {
    const value = parseSeconds(raw, min);
    if (value === undefined)
      throw new InvalidArgumentError(`${flag} takes ${secondsRange(min)}, e.g. ${flag} 4`);
    return value;
  };
}

const DURATION = /^(\d+)(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Whose midnight `today` and `yesterday` are: the machine's time zone, or UTC (under `--time utc`). */
export type TimeZoneChoice = 'local' | 'utc';

/** Days back from today that the words for days mean. */
const DAY_WORDS: Record<string, number> = { today: 0, yesterday: 1 };

/**
 * A time argument: ISO 8601 (UTC when no offset is given), a duration back from `now`
 * (`90s`, `15m`, `24h`, `7d`, `2w`), or `today` and `yesterday` (midnight in `zone`).
 * Returns the instant as an ISO string with milliseconds.
 */
export function parseTime(raw: string, now: number, flag = 'time', zone: TimeZoneChoice = 'local'): string {
  const text = raw.trim();
  const daysBack = DAY_WORDS[text.toLowerCase()];
  if (daysBack !== undefined) return new Date(midnight(now, daysBack, zone)).toISOString();
  const duration = DURATION.exec(text);
  if (duration) return new Date(now - Number(duration[1]) * UNIT_MS[duration[2]]).toISOString();
  const isoLike = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  // Date.parse rolls 2026-02-30 over to 2 March; a day past the month's end is garbage.
  if (
    isoLike &&
    Number(text.slice(8, 10)) <= daysInMonth(Number(text.slice(0, 4)), Number(text.slice(5, 7)))
  ) {
    const hasOffset = Boolean(isoLike[4]);
    const hasTime = Boolean(isoLike[1]);
    const normalised = text.replace(' ', 'T');
    const ms = Date.parse(hasOffset ? normalised : hasTime ? `${normalised}Z` : `${normalised}T00:00:00Z`);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  throw new InvalidArgumentError(
    `${flag} takes an ISO 8601 time (2026-11-01T09:00:00Z), a duration back from now (90s, 15m, 24h, 7d, 2w), or today, yesterday; got "${raw}"`,
  );
}

/**
 * The start of the day `daysBack` days before the one `now` falls on, in `zone`. Counted in
 * calendar days, not 24-hour steps, so a day that daylight saving made 23 or 25 hours long
 * still starts at its midnight.
 */
function midnight(now: number, daysBack: number, zone: TimeZoneChoice): number {
  const at = new Date(now);
  if (zone === 'utc') return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - daysBack);
  return new Date(at.getFullYear(), at.getMonth(), at.getDate() - daysBack).getTime();
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A commander parser for a time flag. */
export function timeFlag(flag: string, now: () => number = Date.now) {
  return (raw: string): string => parseTime(raw, now(), flag);
}

/**
 * A definition's parser for a time flag: durations count back from the run's clock, `today`
 * and `yesterday` are midnight in the zone `--time` chose (the machine's unless `--time utc`).
 */
export function timeParser(flag: string) {
  return (
    raw: string,
    _previous: unknown,
    { now, timeZone }: { now: () => number; timeZone?: () => TimeZoneChoice },
  ): string => parseTime(raw, now(), flag, timeZone?.());
}

/** What a time flag's help says it takes. */
export const TIME_HELP = 'ISO 8601, a duration back from now (24h, 7d), today or yesterday';

/** Collects a repeatable flag's values, in the order given (a definition's `parse`, with `default: []`). */
export function collect(value: string, previous: unknown): string[] {
  return [...(Array.isArray(previous) ? previous : []), value];
}
