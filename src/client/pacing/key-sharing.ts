/**
 * What one client shares with the other `svc` processes on its key, built from its settings:
 * where pacing is shared (Redis for every machine, with this machine's state file while Redis
 * is away; or the state file alone), the count of the write quota spent, and the clock they
 * share. Nothing touches the disk or the network before the first request.
 */
import type { ClientOptions } from '../types.js';
import { QuotaFile, QuotaTally, RedisQuota } from './quota-tally.js';
import { FileStore, type SharedStore, sharedBucketId } from './record-file.js';
import { RedisLink } from './redis-link.js';
import { RedisStore } from './redis-store.js';

/** A client's sharing on its key. */
export interface KeySharing {
  /** Where pacing is shared first: Redis when set, else this machine's state file. */
  primary?: SharedStore;
  /** Where pacing is shared while the primary is away (the state file, behind Redis). */
  fallback?: SharedStore;
  /** svc's count of the write quota spent on the key. */
  quota?: QuotaTally;
  /** The connection to Redis, when SVC_PACING_URL is set. */
  link?: RedisLink;
  /** The clock of every time shared: Redis's, when processes of several machines share. */
  now: () => number;
}

/** The sharing a client's settings ask for (nothing without a key or a config dir). */
export function keySharing(
  options: Pick<ClientOptions, 'sharedPacing' | 'apiKey' | 'baseUrl' | 'warning' | 'debug'>,
  localNow: () => number,
): KeySharing {
  const { sharedPacing, apiKey, baseUrl } = options;
  if (!sharedPacing || !apiKey) return { now: localNow };
  const bucketId = sharedBucketId(apiKey, baseUrl);
  const pacing = sharedPacing.pacing !== false;
  const link =
    pacing && sharedPacing.url
      ? new RedisLink(sharedPacing.url, { warning: options.warning, debug: options.debug }, localNow)
      : undefined;
  const now = link ? () => localNow() + link.clockOffsetMs : localNow;
  const file = pacing ? new FileStore(sharedPacing.dir, bucketId, now) : undefined;
  const redis = link ? new RedisStore(link, bucketId, now) : undefined;
  const quota = new QuotaTally(
    // The count is the user's on this machine, whatever config dir each process uses.
    new QuotaFile(sharedPacing.quotaDir ?? sharedPacing.dir, bucketId),
    link ? new RedisQuota(link, bucketId) : undefined,
    now,
  );
  return { primary: redis ?? file, fallback: redis ? file : undefined, quota, link, now };
}
