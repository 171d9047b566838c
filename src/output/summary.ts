/** The closing summary of a bulk command (README, Output: stderr, or stdout as JSON with --json). */
import type { BulkSummary } from '../core/bulk.js';
import { counted } from '../words.js';

/** What a test key's answers are told apart by: its writes were simulated. */
export function simulatedNote(live: boolean): string {
  return live ? '' : ' (test key: results were simulated, nothing changed)';
}

/** "2 requests (2 units of daily write quota)": what a run of writes sends and spends. */
export function requestsAndQuota(requests: number): string {
  return `${counted(requests, 'request')} (${counted(requests, 'unit')} of daily write quota)`;
}

/** What a summary counts beyond the tally: items a stopped run never sent. */
export type SummaryCounts = BulkSummary & { created?: number; not_sent?: number };

/**
 * "Fulfilled 3 of 6 orders in 4 requests (1.2 s): 3 updated, 3 skipped": the verb counts only
 * the items the service took (updated, unchanged, created, simulated), out of all planned, and
 * the rest are named for what happened to them; items never sent are "not sent", not "skipped".
 */
export function summaryLine(summary: SummaryCounts, noun: string, verb: string): string {
  const notSent = summary.not_sent ?? 0;
  // Items a stopped run never sent are in `skipped` too (the JSON summary's shape is fixed).
  const skipped = Math.max(0, summary.skipped - notSent);
  const taken = summary.updated + summary.unchanged + summary.simulated + (summary.created ?? 0);
  const planned = summary.total + notSent;
  const parts: string[] = [];
  if (summary.created) parts.push(`${summary.created.toLocaleString('en-US')} created`);
  for (const [count, word] of [
    [summary.updated, 'updated'],
    [summary.unchanged, 'unchanged'],
    [summary.failed, 'failed'],
    [skipped, 'skipped'],
    [summary.simulated, 'simulated'],
    [notSent, 'not sent'],
  ] as const) {
    if (count > 0) parts.push(`${count.toLocaleString('en-US')} ${word}`);
  }
  const what =
    taken === planned
      ? counted(planned, noun.replace(/s$/, ''), noun)
      : `${taken.toLocaleString('en-US')} of ${counted(planned, noun.replace(/s$/, ''), noun)}`;
  return `${verb} ${what} in ${counted(summary.requests, 'request')} (${summary.seconds.toFixed(1)} s): ${parts.join(', ') || 'nothing done'}`;
}
