/**
 * The checks of `svc doctor` about what svc shares with its other processes on a key: the
 * Redis of SVC_PACING_URL, and svc's count of the write quota spent. Pure, like checks.ts: each
 * from facts already gathered; the Redis password is never in them (the URL is shown masked).
 */
import type { QuotaReading } from '../../client/pacing/quota-tally.js';
import { countedWhere, spentSentence } from '../quota/spent.js';
import type { Check } from './checks.js';

/** Above this round trip, Redis costs each request more than the pacing it shares saves. */
const SLOW_REDIS_MS = 20;

/** What the doctor learned of the pacing URL. */
export type PacingUrlFacts =
  | { set: false }
  | { set: true; shown: string; setting: string; off: true }
  | { set: true; shown: string; setting: string; latencyMs: number; version?: string }
  | { set: true; shown: string; setting: string; problem: string };

/** The Redis that shares pacing across machines: reachable, how fast, which version. */
export function pacingUrlCheck(facts: PacingUrlFacts): Check {
  const name = 'pacing url';
  if (!facts.set) {
    return {
      name,
      status: 'ok',
      detail: 'not set: pacing and the quota count are shared with the svc processes of this machine only',
    };
  }
  const what = `${facts.setting} ${facts.shown}`;
  if ('off' in facts) {
    return {
      name,
      status: 'warn',
      detail: `${what} is set, but SVC_SHARED_PACING=0 turns every sharing off`,
      fix: 'unset SVC_SHARED_PACING to share pacing through Redis',
    };
  }
  if ('problem' in facts) {
    // A Redis that answers but refuses (a database it lacks, a wrong password) is a setting to
    // fix, not one that is away for now.
    const refused = facts.problem.startsWith('refuses');
    return {
      name,
      status: refused ? 'fail' : 'warn',
      detail: `${what} ${facts.problem}: svc paces with the processes of this machine only (the service's 429 answers still hold requests back)`,
      fix: `start that Redis, or correct or unset ${facts.setting}; svc works without it`,
    };
  }
  const ms = facts.latencyMs < 10 ? facts.latencyMs.toFixed(1) : String(Math.round(facts.latencyMs));
  const version = facts.version ? ` (Redis ${facts.version})` : '';
  const detail = `${what} answers in ${ms} ms${version}`;
  const major = Number(facts.version?.split('.')[0] ?? 99);
  const minor = Number(facts.version?.split('.')[1] ?? 0);
  if (major < 2 || (major === 2 && minor < 6)) {
    return {
      name,
      status: 'fail',
      detail: `${detail}: svc needs Redis 2.6 or later (Lua scripts)`,
      fix: 'upgrade Redis',
    };
  }
  if (facts.latencyMs > SLOW_REDIS_MS) {
    return {
      name,
      status: 'warn',
      detail: `${detail}: each request waits two or three of those round trips`,
      fix: 'use a Redis closer to the machines that run svc',
    };
  }
  return { name, status: 'ok', detail };
}

/** svc's count of the write quota it spent today on the key. */
export function quotaCheck(facts: QuotaReading | string): Check {
  const name = 'write quota';
  if (typeof facts === 'string') return { name, status: 'skip', detail: facts };
  const unshared = facts.unshared ? `; the count of every machine could not be read: ${facts.unshared}` : '';
  return {
    name,
    status: 'ok',
    detail: `${spentSentence(facts)} (${countedWhere(facts)}; it resets at 00:00 UTC)${unshared}`,
  };
}
