/**
 * The channel simulation: live operations answer per channel after a delay, some channel
 * calls are throttled (`channel_rate_limited`, retried with backoff) or fail, and listings
 * are judged by each kind's rules (photos, brand and barcode, title length, category schema).
 * Every roll is a hash of the seed and the call, so runs repeat under the same seed and clock.
 */

import { channelKind } from '../channel-kinds.js';
import { listingIssues, liveIssues } from '../channel-rules.js';
import { isoTime } from '../clock.js';
import type { IssueRecord, ListingRecord, OperationRecord, OperationResultRecord } from '../model.js';
import { Rng, unitHash } from '../rng.js';
import type { Store } from '../store/store.js';
import { DueQueue } from './due-queue.js';

/** How channels behave. */
export interface ChannelSimulationOptions {
  seed: number;
  /** From a write to its channels' answers. */
  delayMs: number;
  /** Share (0 to 1) of channel calls answered `channel_rate_limited`, retried with backoff. */
  rateLimitShare: number;
  /** Share (0 to 1) of channel calls that fail outright with `channel_error`. */
  failureShare: number;
}

/** Attempts of one throttled channel call before its result fails with `channel_rate_limited`. */
const MAX_CHANNEL_ATTEMPTS = 5;
const LISTING_WRITES = new Set(['listing.publish', 'listing.update']);
const TERMINAL = new Set(['succeeded', 'partial', 'failed']);
const TERMINAL_RESULT = new Set(['succeeded', 'failed']);
/**
 * Channel calls one request or tick answers at most; the rest wait for the next ones. A call
 * costs some 100 us (a listing re-indexed, an event): 500 keep a tick near 50 ms, so a page
 * asked while the seeded work of a million SKUs ends waits for one batch, not for seconds.
 */
const MAX_ANSWERS_PER_ADVANCE = 500;

interface ChannelCall {
  operationId: string;
  /** Index into the operation's results; -1 completes an operation that has none. */
  resultIndex: number;
  dueMs: number;
  attempt: number;
  seq: number;
}

type Outcome = { ok: true } | { ok: false; issues: IssueRecord[] };

/** Runs the channel side of live operations as the clock passes their due times. */
export class ChannelSimulation {
  private readonly calls = new DueQueue<ChannelCall>();
  /**
   * When each pending operation turns `processing` (a channel picked it up), earliest first:
   * a request looks only at those due, not at every operation under way.
   */
  private readonly starts = new DueQueue<{ dueMs: number; seq: number; operationId: string }>();
  private seq = 0;

  constructor(
    private readonly store: Store,
    readonly options: ChannelSimulationOptions,
  ) {}

  /**
   * Queue the channel calls of a live operation still under way: its channels answer at
   * `dueMs` (default: the channel delay from now), and a pending one turns `processing` halfway.
   * Results already answered are not asked again.
   */
  schedule(operation: OperationRecord, nowMs: number, dueMs = nowMs + this.options.delayMs): void {
    if (operation.status === 'pending')
      this.starts.push({
        dueMs: nowMs + Math.floor((dueMs - nowMs) / 2),
        seq: this.seq++,
        operationId: operation.id,
      });
    const open = operation.results.flatMap((result, index) =>
      TERMINAL_RESULT.has(result.status) ? [] : [index],
    );
    for (const resultIndex of open.length === 0 ? [-1] : open) {
      this.calls.push({ operationId: operation.id, resultIndex, dueMs, attempt: 1, seq: this.seq++ });
    }
  }

  /**
   * Take over every operation of the store still under way (after seeding or loading a saved
   * state), so it ends as a new one does: answered by its channels, with events and deliveries.
   */
  adopt(nowMs: number, dueMs: number): void {
    for (const operation of this.store.operations.values()) {
      if (!TERMINAL.has(operation.status)) this.schedule(operation, nowMs, dueMs);
    }
  }

  /** Forget every queued call (reset). */
  clear(): void {
    this.calls.clear();
    this.starts.clear();
  }

  /** Channel calls still queued (for tests and the control API). */
  pendingCalls(): number {
    return this.calls.size;
  }

  /**
   * Answer the calls due by `nowMs`, oldest first (retries due meanwhile included), at most
   * MAX_ANSWERS_PER_ADVANCE of them: a request after a long quiet spell (the seeded work of a
   * million SKUs, ending together) leaves the rest to the next ones, so none waits on them all.
   */
  advance(nowMs: number): void {
    let budget = MAX_ANSWERS_PER_ADVANCE;
    for (
      let start = this.starts.popDue(nowMs);
      start;
      start = budget-- > 0 ? this.starts.popDue(nowMs) : undefined
    ) {
      const operation = this.store.operations.get(start.operationId);
      if (operation?.status === 'pending') {
        this.store.changeOperation(operation, () => {
          operation.status = 'processing';
        });
      }
    }
    for (; budget > 0; budget--) {
      const next = this.calls.popDue(nowMs);
      if (!next) break;
      this.answer(next);
    }
  }

  private answer(call: ChannelCall): void {
    const operation = this.store.operations.get(call.operationId);
    if (!operation || TERMINAL.has(operation.status)) return;
    const completed = this.store.changeOperation(operation, () => this.apply(operation, call));
    // A completed operation never changes again (answers stop at a terminal status): no copy.
    if (completed) this.store.emitEvent('operation.completed', operation, call.dueMs, { fixed: true });
  }

  /** One channel call's answer applied to its operation (and listing); true when the operation completed. */
  private apply(operation: OperationRecord, call: ChannelCall): boolean {
    operation.status = 'processing';
    if (call.resultIndex >= 0) {
      const result = operation.results[call.resultIndex];
      const throttled =
        this.roll(operation.id, call.resultIndex, call.attempt, 'rate') < this.options.rateLimitShare;
      if (throttled && call.attempt < MAX_CHANNEL_ATTEMPTS) {
        const waitMs = Math.max(this.options.delayMs, 100) * 2 ** (call.attempt - 1);
        result.status = 'processing';
        result.error = {
          code: 'channel_rate_limited',
          message: `The channel throttled the call (attempt ${call.attempt} of ${MAX_CHANNEL_ATTEMPTS}); retrying in ${waitMs / 1000} s.`,
        };
        this.calls.push({ ...call, dueMs: call.dueMs + waitMs, attempt: call.attempt + 1, seq: this.seq++ });
        return false;
      }
      const outcome = throttled
        ? failure(
            'channel_rate_limited',
            `The channel kept throttling the call; it gave up after ${MAX_CHANNEL_ATTEMPTS} attempts. Resync to try again.`,
          )
        : this.roll(operation.id, call.resultIndex, call.attempt, 'fail') < this.options.failureShare
          ? failure('channel_error', 'The channel answered with an internal error. Resync to try again.')
          : this.judge(operation, result);
      const blocking = outcome.ok
        ? undefined
        : (outcome.issues.find((issue) => issue.severity === 'error') ?? outcome.issues[0]);
      result.status = outcome.ok ? 'succeeded' : 'failed';
      result.error = blocking ? { code: blocking.code, message: blocking.message } : null;
      this.applyToListing(operation, result, outcome, call.dueMs);
    }
    if (operation.results.some((result) => result.status !== 'succeeded' && result.status !== 'failed'))
      return false;
    const failed = operation.results.filter((result) => result.status === 'failed').length;
    operation.status =
      failed === 0 ? 'succeeded' : failed === operation.results.length ? 'failed' : 'partial';
    operation.completed_at = isoTime(call.dueMs);
    return true;
  }

  /** The channel's verdict on one result: listing writes are judged, everything else goes through. */
  private judge(operation: OperationRecord, result: OperationResultRecord): Outcome {
    if (!LISTING_WRITES.has(operation.type) || !result.listing_id) return { ok: true };
    const listing = this.store.listings.get(result.listing_id);
    const product = listing ? this.store.products.get(listing.product_id) : undefined;
    const account = listing ? this.store.accounts.get(listing.channel_account_id) : undefined;
    if (!listing || !product || !account) {
      return failure('product_missing', 'The product of this listing no longer exists in the catalog.');
    }
    const issues = listingIssues(listing, product, account, this.store.taxonomies.get(account.id));
    return issues.some((issue) => issue.severity === 'error') ? { ok: false, issues } : { ok: true };
  }

  /**
   * A listing follows the answer of its latest operation only; an older one no longer speaks
   * for it, except a delist that succeeded: the product is off the channel, whatever came after.
   * A listing already delisted never moves again.
   */
  private applyToListing(
    operation: OperationRecord,
    result: OperationResultRecord,
    outcome: Outcome,
    atMs: number,
  ): void {
    if (!operation.type.startsWith('listing.') || !result.listing_id) return;
    const listing = this.store.listings.get(result.listing_id);
    const delist = operation.type === 'listing.delist';
    if (!listing || (listing.operation_id !== operation.id && !(delist && outcome.ok))) return;
    // Delisted stays delisted (by its own delist, or by its product's deletion): nothing brings it back.
    if (listing.status === 'delisted') return;
    const before = listing.status;
    this.store.listings.update(listing, () => {
      if (outcome.ok && delist) {
        listing.status = 'delisted';
        listing.issues = [];
        listing.variants = variantsWithStatus(listing, 'inactive');
      } else if (outcome.ok) {
        this.goLive(listing);
      } else {
        // A refused delist leaves a listing that is still on the channel listed.
        listing.status = delist && listing.id_on_channel ? 'listed' : 'error';
        listing.issues = outcome.issues;
        if (listing.status === 'error') listing.variants = variantsWithStatus(listing, 'error');
      }
      listing.updated_at = isoTime(atMs);
    });
    if (listing.status !== before) this.store.emitEvent('listing.status_changed', listing, atMs);
  }

  private goLive(listing: ListingRecord): void {
    const profile = channelKind(listing.channel);
    const rng = new Rng(Math.floor(this.roll(listing.id, 0, 0, 'id') * 2 ** 31));
    listing.id_on_channel ??= profile.listingIdOnChannel(rng);
    listing.url_on_channel = profile.listingUrl(listing.site, listing.id_on_channel);
    listing.status = 'listed';
    const product = this.store.products.get(listing.product_id);
    listing.issues = product ? liveIssues(listing, product) : [];
    listing.variants = (product?.variants ?? []).map((variant) => ({
      variant_id: variant.id,
      sku: variant.sku,
      id_on_channel: `${listing.id_on_channel}-${variant.id.slice(-4)}`,
      status: 'active',
    }));
  }

  private roll(id: string, index: number, attempt: number, salt: string): number {
    return unitHash(`${this.options.seed}|${id}|${index}|${attempt}|${salt}`);
  }
}

function failure(code: string, message: string): Outcome {
  return { ok: false, issues: [{ code, severity: 'error', message, attribute_names: [] }] };
}

/** A listing's variants with a new status: new entries, since a seeded store shares equal ones between listings. */
function variantsWithStatus(listing: ListingRecord, status: string): ListingRecord['variants'] {
  return listing.variants.map((variant) => ({ ...variant, status }));
}
