/**
 * svc's count of the daily write quota it spent on a key (src/client/pacing/quota-tally.ts), in
 * the words and the JSON every command shows it with: `svc quota`, `auth status`, `doctor` and
 * the live bulk plans. Always labelled as counted by svc: the service sends no count of its own.
 */
import type { QuotaReading } from '../../client/pacing/quota-tally.js';
import { counted } from '../../words.js';

/** The reading as JSON (`svc quota --json`, `auth status --json`'s `write_quota`). */
export function quotaJson(reading: QuotaReading): Record<string, unknown> {
  return {
    day: reading.day,
    spent: reading.spent,
    this_machine: reading.thisMachine,
    counted_by: 'svc',
    counted_on: reading.countedOn,
    resets_at: reading.resetsAt.toISOString(),
    ...(reading.unshared ? { not_shared_because: reading.unshared } : {}),
  };
}

/** "svc has spent 9,990 units of daily write quota today on this key" (`withDay`: "today (2025-06-01 UTC)"). */
export function spentSentence(reading: QuotaReading, withDay = false): string {
  const today = withDay ? `today (${reading.day} UTC)` : 'today';
  return `svc has spent ${counted(reading.spent, 'unit')} of daily write quota ${today} on this key`;
}

/** "counted by svc on this machine", "counted by svc on every machine sharing SVC_PACING_URL". */
export function countedWhere(reading: QuotaReading): string {
  return `counted by svc on ${reading.countedOn}`;
}

/** What a live bulk plan adds after its own cost: "svc has spent 9,990 today on this key". */
export function planNote(reading: QuotaReading): string {
  const spent = reading.spent.toLocaleString('en-US');
  // A count of one machine cannot see what other machines spent: it says so when that matters.
  if (reading.countedOn === 'this machine' && reading.unshared)
    return `svc has counted ${spent} on this machine today; other machines are not counted while SVC_PACING_URL does not answer`;
  if (reading.spent === 0 && reading.countedOn === 'this machine')
    return 'svc has counted 0 on this machine today; other machines are not counted without SVC_PACING_URL';
  return `svc has spent ${spent} today on this key`;
}
