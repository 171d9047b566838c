/** The package's library entry: what receivers written in TypeScript import to check deliveries. */

export type {
  ParsedSignature,
  RawPayload,
  VerifyFailureReason,
  VerifyInput,
  VerifyResult,
} from './api/signature.js';
export { computeSignature, parseSignatureHeader, sign, verifySignature } from './api/signature.js';
