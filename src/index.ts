/** The package's library entry: what receivers and scripts written in TypeScript can import. */

export type {
  ParsedSignature,
  RawPayload,
  VerifyFailureReason,
  VerifyInput,
  VerifyResult,
} from './api/signature.js';
export { computeSignature, parseSignatureHeader, sign, verifySignature } from './api/signature.js';
export type { EmulatorKeys, EmulatorOptions, RunningEmulator } from './emulator/index.js';
export { startEmulator } from './emulator/index.js';
