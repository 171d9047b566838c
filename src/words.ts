/** Words for people, shared by every layer: plurals, counts and lists cut short. */

/** `singular` for one, else `pluralForm` (default: `singular` + s): plural(3, 'line'), plural(n, 'it', 'them'). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** "12 requests", "1 request", "1,200 SKUs": a count and its noun, in plain words. */
export function counted(count: number, singular: string, pluralForm?: string): string {
  return `${thousands(count)} ${plural(count, singular, pluralForm)}`;
}

/**
 * A whole number with commas between thousands, "1,200", as toLocaleString('en-US') writes it:
 * without ICU, whose number formatting costs a command's first use 10 ms.
 */
export function thousands(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const digits = String(Math.abs(count));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${grouped}` : grouped;
}

/** "6 channel accounts: Amazon US, eBay US, …": how many, then each by name. */
export function countedNames(singular: string, names: readonly string[]): string {
  return `${counted(names.length, singular)}: ${names.join(', ')}`;
}

/**
 * The first `max` of `lines`, then "… and N more" for the rest of `total` (default: every
 * line given), so a long list names a few and counts the others.
 */
export function capped(lines: readonly string[], max: number, total = lines.length): string[] {
  const shown = lines.slice(0, max);
  const more = total - shown.length;
  return more > 0 ? [...shown, `… and ${more} more`] : shown;
}
