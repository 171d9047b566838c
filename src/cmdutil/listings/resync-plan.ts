/**
 * The bulk run of `listings retry` and `listings update --error-code`: one PATCH per listing
 * (`{}` resyncs it as it is; an update carries its change), listings held back settled apart
 * without a request, then with --wait each sent listing's verdict from its channel.
 */
import type { ApiClient } from '../../client/client.js';
import type { Listing, ListingUpdate } from '../../contract/schemas/listing.js';
import type { ListingReads } from '../../core/listings/reads.js';
import type { ResyncOperations, RetryVerdict } from '../../core/listings/retry.js';
import type { BulkLedger, Verdict } from '../../core/outcomes.js';
import { counted } from '../../words.js';
import type { BulkPlan, FollowUp } from '../bulk-command.js';
import type { BulkSession } from '../bulk-session.js';
import type { Deps } from '../deps.js';
import type { WaitFlags } from '../follow.js';
import type { Selection } from './selection.js';

/** What the run uses of the command's dependencies. */
export type ResyncDeps = Pick<Deps, 'argv' | 'client' | 'globals' | 'io' | 'now' | 'prompts' | 'signal'>;

/** One retry or bulk update, as its command states it. */
export interface ResyncSpec {
  selection: Selection;
  /** Listings not sent, each with its final outcome (`unfixed`, `unchanged`), settled without a request. */
  held: ReadonlyMap<string, Verdict>;
  /** What each PATCH carries: `{}` for a plain resync. */
  body: ListingUpdate;
  /** What --dry-run shows instead of sending. */
  dryRun: () => Promise<void>;
  /** The question's verb: "Resync", "Update". */
  ask: string;
  /** The summary's first word: "Resynced", "Updated". */
  verb: string;
  /** What a "no" cancels: "retry", "update". */
  action: string;
  flags: WaitFlags & { report?: string; dryRun?: boolean };
  /** After the command that runs it again: why that is safe. */
  rerunNote: string;
  /** Said after "Found …", before the question: why some are held back. */
  heldNote?: string;
  /** Fields of the JSON summary beyond the counts. */
  json?: (record: BulkLedger) => Record<string, unknown>;
  /** Shared reads (hints in the verdicts' messages). */
  reads: ListingReads;
}

/** Runs the retry or update through the bulk frame (or shows its dry run). */
export async function runResync(deps: ResyncDeps, spec: ResyncSpec): Promise<void> {
  const { runBulk } = await import('../bulk-command.js');
  await runBulk(deps, resyncPlan(deps, spec), spec.flags);
}

/** The plan the bulk frame runs. */
function resyncPlan(deps: ResyncDeps, spec: ResyncSpec): BulkPlan {
  const { matches, what, errorCode } = spec.selection;
  const answers = new Map<string, Listing>();
  const sent = matches.length - spec.held.size;
  return {
    noun: 'listings',
    total: matches.length,
    // Listings come from no file: their rows have no line.
    items: () => matches.map((listing) => ({ key: listing.id })),
    report: spec.flags.report,
    dryRun: async () => {
      await spec.dryRun();
      const { report } = spec.flags;
      if (report === undefined) return;
      // What the live run records: a held listing settled apart, every other one sent.
      const { writeDryReport } = await import('../bulk-command.js');
      await writeDryReport(
        report,
        matches.map((listing) => {
          const held = spec.held.get(listing.id);
          return held
            ? { key: listing.id, status: 'would_skip', code: held.code, message: held.message }
            : { key: listing.id, status: 'would_send' };
        }),
      );
    },
    prepare: () => {
      deps.io.messages.info(`Found ${matches.length.toLocaleString('en-US')} ${what}.`);
      if (spec.heldNote) deps.io.messages.info(spec.heldNote);
    },
    // Nothing to send, nothing to ask.
    confirmation:
      sent > 0
        ? `${spec.ask} ${counted(sent, 'listing')} with a LIVE key (${counted(sent, 'request')}, ${counted(sent, 'unit')} of daily write quota)`
        : undefined,
    action: spec.action,
    send: async (session, client) => {
      const { sendResyncs } = await import('../../core/listings/retry.js');
      const onAnswer = (answer: Listing) => answers.set(answer.id, answer);
      await sendResyncs(client, matches, { held: spec.held, body: spec.body, onAnswer }, session);
    },
    verb: spec.verb,
    json: spec.json,
    follow: spec.flags.wait
      ? async (session) => {
          const client = await deps.client();
          const { resyncOperations } = await import('../../core/listings/retry.js');
          const operations = resyncOperations(matches, answers);
          return followResyncs(deps, client, operations, matches, session, spec);
        }
      : undefined,
    rerunNote: spec.rerunNote,
    nextStep:
      spec.flags.wait || sent === 0
        ? undefined
        : `Follow them with --wait, or: svc listings list --status error --error-code ${errorCode}`,
  };
}

/**
 * Follows every sent listing's operation and records each listing's verdict as its final
 * outcome; the listings still failing or pending are printed now, before the summary (an
 * invalid attribute value with the command that shows the allowed ones), and the verdict ends
 * the run (exit 3 for failing, 8 for pending).
 */
async function followResyncs(
  deps: Pick<Deps, 'io' | 'signal'>,
  client: ApiClient,
  resyncs: ResyncOperations,
  matches: readonly Listing[],
  session: BulkSession,
  spec: ResyncSpec,
): Promise<FollowUp> {
  const timeoutSeconds = spec.flags.timeout;
  const { followMany } = await import('../follow.js');
  const { endOfFollow } = await import('../../core/operations/follow.js');
  const { stillFailing, tallyVerdicts, verdictOutcomes, verdicts } = await import(
    '../../core/listings/retry.js'
  );
  const followed = await followMany(deps, client, [...resyncs.byListing.values()], {
    timeoutSeconds,
    createdAfter: resyncs.createdAfter,
  });
  const all = await withHints(spec.reads, verdicts(resyncs.byListing, followed.operations), matches);
  session.revise(verdictOutcomes(all, new Map(matches.map((listing, index) => [listing.id, index]))));
  const { listed, failing, pending, simulated, unresolved } = tallyVerdicts(all);
  if (!deps.io.wantsJson && unresolved.length > 0) {
    const { fromArray } = await import('../list-command.js');
    const { retryVerdictsView } = await import('../../output/views/listings.js');
    await deps.io.printer.list(fromArray(unresolved), retryVerdictsView);
  }
  const after = spec.verb === 'Updated' ? 'After the update' : 'After the resync';
  return {
    json: { listed, still_failing: failing, still_pending: pending, unresolved },
    end: () => {
      deps.io.messages.info(
        `${after}: ${listed.toLocaleString('en-US')} listed, ${failing.toLocaleString('en-US')} still failing${pending > 0 ? `, ${pending} still pending after ${timeoutSeconds} s` : ''}${simulated > 0 ? `, ${simulated} simulated (test key)` : ''}.`,
      );
      // Refused at the write, or by the channel after it: every failed listing, from the record.
      endOfFollow(followed, stillFailing(session.ledger.count('failed')));
    },
  };
}

/** Verdicts whose issue svc can say more about (an invalid attribute value: the schema command). */
async function withHints(
  reads: ListingReads,
  all: RetryVerdict[],
  matches: readonly Listing[],
): Promise<RetryVerdict[]> {
  const { issueHint } = await import('../../core/listings/cause.js');
  const byId = new Map(matches.map((listing) => [listing.id, listing]));
  return Promise.all(
    all.map(async (verdict) => {
      const listing = byId.get(verdict.listing_id);
      if (verdict.status !== 'failing' || !verdict.code || !listing) return verdict;
      const hint = await issueHint(reads, listing, { code: verdict.code });
      return hint ? { ...verdict, message: [verdict.message, hint].filter(Boolean).join(' ') } : verdict;
    }),
  );
}
