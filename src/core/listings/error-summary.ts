/**
 * `listings errors`: what is broken on which channel, from one crawl of the listings in
 * `error`. A listing counts once under each distinct issue code it carries, as the service's
 * `error_code` filter (and so `listings retry`) selects it; a listing in error with no issue
 * counts under NO_CODE. Per channel kind, or per channel account with `byAccount`.
 */
import type { Listing } from '../../contract/schemas/listing.js';

/** The code under which a listing in error with no error issue is counted. */
export const NO_CODE = '(none)';
/** The channel of a listing whose kind neither it nor its account says. */
export const UNKNOWN_CHANNEL = '(unknown)';

/** One error code on one channel kind (and account): how many listings, since when, and the retry. */
export interface ErrorGroup {
  error_code: string;
  channel: string;
  channel_account_id?: string;
  listings: number;
  oldest_updated_at: string;
  newest_updated_at: string;
  /** The `svc listings retry` that resyncs exactly these listings; empty for NO_CODE. */
  retry: string;
}

interface Counter {
  code: string;
  accountId: string;
  listings: number;
  oldest: string;
  newest: string;
}

/** Counts listings in error as they stream by; `groups()` folds them by channel kind at the end. */
export class ErrorSummary {
  /** Listings counted (each once, however many codes it has). */
  listings = 0;
  private readonly counters = new Map<string, Counter>();
  /** The kind of each account, as its listings say. */
  private readonly kinds = new Map<string, string>();

  add(listing: Listing): void {
    this.listings++;
    if (listing.channel) this.kinds.set(listing.channel_account_id, listing.channel);
    for (const code of errorCodes(listing)) {
      const key = `${code}\u0000${listing.channel_account_id}`;
      const counter = this.counters.get(key);
      if (!counter) {
        this.counters.set(key, {
          code,
          accountId: listing.channel_account_id,
          listings: 1,
          oldest: listing.updated_at,
          newest: listing.updated_at,
        });
        continue;
      }
      counter.listings++;
      if (listing.updated_at < counter.oldest) counter.oldest = listing.updated_at;
      if (listing.updated_at > counter.newest) counter.newest = listing.updated_at;
    }
  }

  /** Accounts whose kind no listing said (ask the service's channel accounts for them). */
  accountsWithoutKind(): string[] {
    return [...new Set([...this.counters.values()].map((c) => c.accountId))].filter(
      (id) => !this.kinds.has(id),
    );
  }

  /** Rows by code and channel kind (or account), most listings first; `kindOf` names the rest. */
  groups(byAccount: boolean, kindOf: ReadonlyMap<string, string> = new Map()): ErrorGroup[] {
    const kind = (accountId: string) => this.kinds.get(accountId) ?? kindOf.get(accountId) ?? UNKNOWN_CHANNEL;
    const folded = new Map<string, ErrorGroup>();
    for (const counter of this.counters.values()) {
      const channel = kind(counter.accountId);
      const key = [counter.code, channel, byAccount ? counter.accountId : ''].join('\u0000');
      const group = folded.get(key);
      if (group) {
        group.listings += counter.listings;
        if (counter.oldest < group.oldest_updated_at) group.oldest_updated_at = counter.oldest;
        if (counter.newest > group.newest_updated_at) group.newest_updated_at = counter.newest;
        continue;
      }
      folded.set(key, {
        error_code: counter.code,
        channel,
        ...(byAccount ? { channel_account_id: counter.accountId } : {}),
        listings: counter.listings,
        oldest_updated_at: counter.oldest,
        newest_updated_at: counter.newest,
        retry: retryCommand(counter.code, channel, byAccount ? counter.accountId : undefined),
      });
    }
    return [...folded.values()].sort(
      (a, b) =>
        b.listings - a.listings ||
        a.error_code.localeCompare(b.error_code) ||
        a.channel.localeCompare(b.channel) ||
        (a.channel_account_id ?? '').localeCompare(b.channel_account_id ?? ''),
    );
  }
}

/** The distinct codes a listing in error is counted under: those `error_code` finds it by. */
export function errorCodes(listing: Listing): string[] {
  const codes = new Set((listing.issues ?? []).map((issue) => issue.code));
  return codes.size > 0 ? [...codes] : [NO_CODE];
}

/** `svc listings retry --error-code CODE --channel KIND [--channel-account ID]`, quoted for a POSIX shell. */
function retryCommand(code: string, channel: string, accountId: string | undefined): string {
  if (code === NO_CODE) return '';
  const words = ['svc listings retry --error-code', shellWord(code)];
  if (channel !== UNKNOWN_CHANNEL) words.push('--channel', shellWord(channel));
  if (accountId) words.push('--channel-account', shellWord(accountId));
  return words.join(' ');
}

function shellWord(text: string): string {
  return /^[\w.:@%+=,/-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
