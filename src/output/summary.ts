/** The closing summary of a bulk command (docs/guide.md, Output: stderr, or stdout as JSON with --json). */
import type { BulkSummary } from '../core/outcomes.js';
import { counted } from '../words.js';

/** What a test key's answers are told apart by: its writes were simulated. */
export function simulatedNote(live: boolean): string {
  return live ? '' : ' (test key: results were simulated, nothing changed)';
}

/** "2 requests (2 units of daily write quota)": what a run of writes sends and spends. */
export function requestsAndQuota(requests: number): string {
  return `${counted(requests, 'request')} (${counted(requests, 'unit')} of daily write quota)`;
}

/** What the summary line says beyond the JSON summary's counts. */
export interface SummaryFigures extends BulkSummary {
  /** Items this run sent that the service took (whatever a follow found of them later). */
  taken: number;
  /** Of `updated`, the items created (upsert, publish). */
  created: number;
  /** Items not sent because their cause looks unchanged (a retry's). */
  unfixed?: number;
}

/**
 * "Pushed 5 of 228 SKUs in 1 request (0.4 s): 5 updated, 223 unchanged": the verb counts the
 * items this run sent and the service took, out of every item of the input; the counts name
 * what became of each, and add up to the input.
 */
export function summaryLine(figures: SummaryFigures, noun: string, verb: string): string {
  const parts: string[] = [];
  for (const [count, word] of [
    [figures.created, 'created'],
    [figures.updated - figures.created, 'updated'],
    [figures.unchanged, 'unchanged'],
    [figures.failed, 'failed'],
    [figures.skipped, 'skipped'],
    [figures.simulated, 'simulated'],
    [figures.not_sent, 'not sent'],
    [figures.unfixed ?? 0, 'unfixed (not sent)'],
  ] as const) {
    if (count > 0) parts.push(`${count.toLocaleString('en-US')} ${word}`);
  }
  const all = counted(figures.total, noun.replace(/s$/, ''), noun);
  const what = figures.taken === figures.total ? all : `${figures.taken.toLocaleString('en-US')} of ${all}`;
  return `${verb} ${what} in ${counted(figures.requests, 'request')} (${figures.seconds.toFixed(1)} s): ${parts.join(', ') || 'nothing done'}`;
}
