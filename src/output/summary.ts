/** The closing summary of a bulk command (README, Output: stderr, or stdout as JSON with --json). */
import type { BulkSummary } from '../core/bulk.js';
import { plural } from '../words.js';

/** What a test key's answers are told apart by: its writes were simulated. */
export function simulatedNote(live: boolean): string {
  return live ? '' : ' (test key: results were simulated, nothing changed)';
}

/** "10,000 SKUs in 100 requests (12.3 s): 9,990 updated, 5 unchanged, 5 failed". */
export function summaryLine(summary: BulkSummary & { created?: number }, noun: string): string {
  const parts = (['updated', 'unchanged', 'failed', 'skipped', 'simulated'] as const)
    .filter((key) => summary[key] > 0)
    .map((key) => `${summary[key].toLocaleString('en-US')} ${key}`);
  // Upserts count created items apart from updated ones.
  if (summary.created) parts.unshift(`${summary.created.toLocaleString('en-US')} created`);
  const requests = `${summary.requests.toLocaleString('en-US')} ${plural(summary.requests, 'request')}`;
  return `${summary.total.toLocaleString('en-US')} ${noun} in ${requests} (${summary.seconds.toFixed(1)} s): ${parts.join(', ') || 'nothing done'}`;
}
