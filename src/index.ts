/**
 * The package's library entry: `createClient()`, the typed client of the service (the one the
 * `svc` commands use), its error class, and the webhook signature checks for receivers.
 */

export type {
  ParsedSignature,
  RawPayload,
  VerifyFailureReason,
  VerifyInput,
  VerifyResult,
} from './contract/signature.js';
export { computeSignature, parseSignatureHeader, sign, verifySignature } from './contract/signature.js';
export { BulkStopped } from './core/bulk-stopped.js';
export { SvcError } from './errors.js';
export { createClient, SvcClient } from './library/client.js';
export type { ClientOptions } from './library/connect.js';
export { List } from './library/list.js';
export type {
  Channels,
  Events,
  Files,
  Fulfillment,
  Inventory,
  Listings,
  Operations,
  Orders,
  Products,
  Service,
  Webhooks,
} from './library/resources.js';
export type * from './library/types.js';
