/** Seconds as flags and the environment give them (a deadline, an interval), bounded by a day. */

/** The longest wait a flag takes: a day, well within what a timer holds (beyond 24.8 days it fires at once). */
export const MAX_WAIT_SECONDS = 86_400;

/** What a number of seconds from `min` (above 0 when 0) up to a day must be, for messages. */
export function secondsRange(min = 0): string {
  return `a number of seconds ${min > 0 ? `from ${min}` : 'above 0'} up to ${MAX_WAIT_SECONDS}`;
}

/** Seconds from `min` (above 0 when 0) up to MAX_WAIT_SECONDS, or undefined: a deadline, an interval. */
export function parseSeconds(raw: string, min = 0): number | undefined {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value > MAX_WAIT_SECONDS) return undefined;
  return value > 0 && value >= min ? value : undefined;
}
