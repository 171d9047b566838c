/** The package's library entry: what receivers written in TypeScript import to check deliveries. */

export type {
  ParsedSignature,
  RawPayload,
  VerifyFailureReason,
  VerifyInput,
  VerifyResult,
} from './contract/signature.js';
export { computeSignature, parseSignatureHeader, sign, verifySignature } from './contract/signature.js';
