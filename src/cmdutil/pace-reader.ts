/** What a bulk run's progress line needs from the pacer, read through ApiClient's public accessors. */
import type { ApiClient } from '../client/client.js';
import type { PaceReading } from '../output/eta.js';

/** How long after a request last waited for the rate limit the run still counts as paced by it. */
const LIMITED_FOR_MS = 3000;

/** A reader of the client's pacing: its sustained rate and whether requests wait. */
export function paceReader(client: ApiClient, now: () => number): () => PaceReading {
  let waits = client.stats.waits;
  let limitedUntil = Number.NEGATIVE_INFINITY;
  return () => {
    const pacing = client.pacing();
    const at = now();
    const waitsNow = client.stats.waits;
    // The bucket is (nearly) full and a request waited for its drain since the last look: the
    // rate limit sets the pace (the burst's own answers do not count: none of them waited).
    const full =
      pacing.bucket !== undefined &&
      pacing.levelBound !== undefined &&
      pacing.levelBound >= pacing.bucket - 1;
    if (full && waitsNow > waits) limitedUntil = at + LIMITED_FOR_MS;
    waits = waitsNow;
    return {
      // Before the drain is proven the pacer starts from a guess far below it: no rate yet.
      perSecond: pacing.learnedDrainPerSecond === undefined ? undefined : pacing.drainPerSecond,
      limited: at < limitedUntil,
    };
  };
}
