/** Words for people, shared by every layer: plurals and lists cut short. */

/** `singular` for one, else `pluralForm` (default: `singular` + s): plural(3, 'line'), plural(n, 'it', 'them'). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** "12 requests", "1 request", "1,200 SKUs": a count and its noun, in plain words. */
export function counted(count: number, singular: string, pluralForm?: string): string {
  return `${count.toLocaleString('en-US')} ${plural(count, singular, pluralForm)}`;
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
