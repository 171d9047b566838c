/** The public status page resource and the liveness probe. */
import { z } from 'zod';
import { Timestamp } from './common.js';

/** One half-hour bucket of the status history. */
const StatusBucket = z.looseObject({ t: Timestamp, up_ratio: z.number() });

/** GET /status: seven days of half-hour buckets and the latest probe. */
export const Status = z.looseObject({
  object: z.string(),
  state: z.string(),
  last_check: z.looseObject({ time: Timestamp, ok: z.boolean(), latency_ms: z.number().nullish() }).nullish(),
  uptime_24h: z.number().nullish(),
  avg_latency_ms: z.number().nullish(),
  buckets: z.array(StatusBucket).nullish(),
});
export type Status = z.infer<typeof Status>;

/** GET /health: `ok` when the API and its database are reachable. */
export const Health = z.looseObject({
  object: z.string(),
  status: z.string(),
  time: Timestamp.nullish(),
});
export type Health = z.infer<typeof Health>;
