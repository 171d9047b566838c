/**
 * After a lost answer to a batch of products, which of its products without variants the lost
 * request made. Nothing but the title can tie such a product to a line, so a product is never
 * claimed by guess: never one for two lines, never one this run already accounted for, and
 * when what the store holds could have come from elsewhere (another line of that title still
 * unsettled, or someone else's product), the lines are left unconfirmed, with the way to check.
 */
import type { Product } from '../../contract/schemas/product.js';
import type { LineItem, ReadBack } from '../bulk.js';
import type { UpsertItem } from './upsert-file.js';

/** An item of the run: its line and place, and the product it sends. */
export type RunItem = UpsertItem & LineItem;

/** What this run knows while it sends: whose fate is open, which products are accounted for. */
export class UpsertLedger {
  /** Ids of products this run's answers and claims gave to its items. */
  private readonly accounted = new Set<string>();
  /** Items whose request is in flight, or whose answer was lost and not settled as made. */
  private readonly open = new Set<RunItem>();
  /** Requests in flight. */
  private readonly inFlight = new Set<Promise<unknown>>();

  /** Sends `items` with `request`, keeping them open until an answer settles them. */
  async sending<T>(items: readonly RunItem[], request: () => Promise<T>): Promise<T> {
    for (const item of items) this.open.add(item);
    const pending = request();
    this.inFlight.add(pending);
    try {
      return await pending;
    } finally {
      this.inFlight.delete(pending);
    }
  }

  /** An answer settled `item`: not open any more, and the product it names (if any) is taken. */
  answered(item: RunItem, productId?: string | null): void {
    this.open.delete(item);
    if (productId) this.accounted.add(productId);
  }

  /** Lets every request now in flight end, so that its answer is accounted for before a read-back. */
  async settleInFlight(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** True for a product this run already gave to an item. */
  isAccounted(productId: string): boolean {
    return this.accounted.has(productId);
  }

  /** Items of the run with this title and no variants whose fate is open, apart from `except`. */
  openWithTitle(title: string, except: ReadonlySet<RunItem>): number {
    let count = 0;
    for (const item of this.open)
      if (!except.has(item) && (item.input.variants?.length ?? 0) === 0 && item.input.title === title)
        count++;
    return count;
  }
}

/** What the judgement needs besides the lost items. */
export interface LostAnswerFacts {
  /** Products without variants created at or after the lost request was sent, none accounted for. */
  created: readonly Product[];
  /** Other items of the run with that title whose fate is open (in flight, or lost themselves). */
  openElsewhere: (title: string) => number;
  /** When the lost request was sent, at the earliest (the read-back's window). */
  since: Date;
}

/**
 * Which lost items (products without variants) the lost request made. By title: none found
 * means none made (they go again); exactly as many found as lost, with no other line of that
 * title open, means each made one (paired once each); anything else cannot be told, and those
 * lines are unconfirmed: neither claimed nor sent again.
 */
export function judgeLostItems<I extends RunItem>(lost: readonly I[], facts: LostAnswerFacts): ReadBack<I> {
  const applied = new Map<I, string>();
  const unconfirmed = new Map<I, string>();
  const byTitle = new Map<string, I[]>();
  for (const item of lost) byTitle.set(item.input.title, [...(byTitle.get(item.input.title) ?? []), item]);
  for (const [title, items] of byTitle) {
    const found = facts.created.filter((product) => product.title === title);
    if (found.length === 0) continue;
    const elsewhere = facts.openElsewhere(title);
    if (elsewhere === 0 && found.length === items.length) {
      for (const [at, item] of items.entries()) applied.set(item, found[at].id);
      continue;
    }
    const why = cannotTell(found.length, items.length, elsewhere, facts.since);
    for (const item of items) unconfirmed.set(item, why);
  }
  return { applied, unconfirmed };
}

function cannotTell(found: number, lost: number, elsewhere: number, since: Date): string {
  const at = since.toISOString();
  const products = found === 1 ? '1 product' : `${found} products`;
  const lines = lost === 1 ? '1 lost line' : `${lost} lost lines`;
  const others =
    elsewhere > 0 ? ` and ${elsewhere} more unsettled ${elsewhere === 1 ? 'line' : 'lines'} of this run` : '';
  return `the answer to its request was lost, and the read-back cannot tell whether it made a product (${products} of its title without variants appeared since ${at}, for ${lines}${others}); check with \`svc products list --updated-after ${at}\` before sending it again`;
}
