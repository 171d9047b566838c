/** GET /status and GET /health: public, no authentication. */
import { isoTime } from '../../clock.js';
import type { Handler } from '../router.js';

const HALF_HOUR_MS = 30 * 60_000;
const BUCKETS = 7 * 48;
const PROBES_PER_BUCKET = 30;

// A bucket's health depends only on its start time, so the history is stable as time moves on.
function upProbes(bucketStartMs: number): number {
  let hash = Math.floor(bucketStartMs / HALF_HOUR_MS) | 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  hash = (hash ^ (hash >>> 16)) >>> 0;
  const roll = hash % 1000;
  if (roll < 6) return PROBES_PER_BUCKET - 1 - (roll % 4);
  if (roll < 30) return PROBES_PER_BUCKET - 1;
  return PROBES_PER_BUCKET;
}

/** Seven days of half-hour buckets, oldest first, ending with the bucket that holds now. */
export const getStatus: Handler = (store) => {
  const now = store.now();
  const currentStart = Math.floor(now / HALF_HOUR_MS) * HALF_HOUR_MS;
  const buckets = [];
  for (let index = BUCKETS - 1; index >= 0; index--) {
    const start = currentStart - index * HALF_HOUR_MS;
    buckets.push({
      t: isoTime(start),
      up_ratio: Math.round((upProbes(start) / PROBES_PER_BUCKET) * 10_000) / 10_000,
    });
  }
  const lastDay = buckets.slice(-48);
  const uptime = lastDay.reduce((sum, bucket) => sum + bucket.up_ratio, 0) / lastDay.length;
  const lastCheckMs = Math.floor(now / 60_000) * 60_000;
  return {
    status: 200,
    body: {
      object: 'status',
      state: 'operational',
      last_check: {
        time: isoTime(lastCheckMs),
        ok: true,
        latency_ms: 38 + (Math.floor(lastCheckMs / 60_000) % 17),
      },
      // A percentage, e.g. 99.93.
      uptime_24h: Math.round(uptime * 10_000) / 100,
      avg_latency_ms: 46,
      buckets,
    },
  };
};

/** Liveness: the API and its (in-memory) database are reachable. */
export const getHealth: Handler = (store) => ({
  status: 200,
  body: { object: 'health', status: 'ok', time: isoTime(store.now()) },
});
