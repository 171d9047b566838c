/** Events: the log entries and webhook payloads, each a snapshot of a resource. */
import { z } from 'zod';
import { Timestamp } from './common.js';

/** An event as the log returns it and as a webhook delivers it. */
export const Event = z.looseObject({
  id: z.string(),
  object: z.string(),
  type: z.string(),
  api_version: z.string().nullish(),
  store_id: z.string().nullish(),
  created_at: Timestamp,
  data: z.looseObject({ object: z.unknown() }),
});
export type Event = z.infer<typeof Event>;
