/**
 * The webhook signature as docs/service-contract.md pins it: `X-Service-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`, the key being the whole secret string as UTF-8.
 * Pure functions, shared by the emulator (which signs), `events replay`/`listen` (which sign
 * as the service does) and receivers (which verify, through the package's main entry).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_HEADER, SIGNATURE_TOLERANCE_SECONDS } from './contract.js';

/** The scheme whose entries carry an HMAC-SHA256; other schemes in a header are ignored. */
const SIGNATURE_SCHEME = 'v1';

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** A raw body as it came off the wire: text (UTF-8) or bytes. */
export type RawPayload = string | Uint8Array;

/** The hex HMAC-SHA256 of `"<t>.<raw body>"` under `secret`. */
export function computeSignature(secret: string, timestampSeconds: number, payload: RawPayload): string {
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  hmac.update(`${timestampSeconds}.`, 'utf8');
  hmac.update(typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload);
  return hmac.digest('hex');
}

/** The X-Service-Signature value for `payload` signed at `timestampSeconds` (Unix seconds). */
export function sign(secret: string, timestampSeconds: number, payload: RawPayload): string {
  const t = Math.floor(timestampSeconds);
  return `t=${t},${SIGNATURE_SCHEME}=${computeSignature(secret, t, payload)}`;
}

/** The headers of a signed delivery of `body`, signed at `nowMs` as the service signs. */
export function signedHeaders(secret: string, body: string, nowMs: number): Record<string, string> {
  return { [SIGNATURE_HEADER]: sign(secret, Math.floor(nowMs / 1000), body) };
}

/** A header split into its timestamp and its v1 entries. */
export interface ParsedSignature {
  timestamp: number;
  signatures: string[];
}

/** The header's `t` and every `v1`, or undefined when it is not `t=<digits>` plus at least one `v1=…`. */
export function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) return undefined;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      // Two timestamps would leave it unclear which one was signed.
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return undefined;
      timestamp = Number(value);
    } else if (name === SIGNATURE_SCHEME) {
      if (value === '') return undefined;
      signatures.push(value);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Why a delivery is not authentic. */
export type VerifyFailureReason =
  | 'malformed_header'
  | 'no_matching_signature'
  | 'timestamp_outside_tolerance'
  | 'secret_missing';

/** The outcome of a verification: authentic, or not with a reason and one line for people. */
export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: VerifyFailureReason; message: string };

/** What verifySignature checks. */
export interface VerifyInput {
  /** The raw request body, exactly as received (not re-serialised JSON). */
  payload: RawPayload;
  /** The X-Service-Signature header value. */
  header: string | undefined | null;
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** Largest accepted distance between `t` and now; default 300 s. */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date or Unix milliseconds; default the system clock. */
  now?: Date | number;
}

/**
 * Whether a delivery is authentic (docs/service-contract.md, Webhooks): any `v1` entry matching, compared in
 * constant time, and `t` within the tolerance of the receiver's clock.
 *
 * @example
 * const result = verifySignature({ payload: rawBody, header: req.headers['x-service-signature'], secret });
 * if (!result.ok) return res.writeHead(400).end(result.message);
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const { payload, header, secret } = input;
  if (!secret) return failure('secret_missing', 'no signing secret was given to verify with');
  const parsed = header ? parseSignatureHeader(header) : undefined;
  if (!parsed) {
    return failure(
      'malformed_header',
      'the signature header is missing or malformed (expected t=<unix seconds>,v1=<hex>)',
    );
  }
  const expected = Buffer.from(computeSignature(secret, parsed.timestamp, payload), 'hex');
  const matched = parsed.signatures.some((candidate) => {
    if (!HEX_DIGEST.test(candidate)) return false;
    // timingSafeEqual needs equal lengths; a 64-hex candidate always decodes to 32 bytes.
    return timingSafeEqual(expected, Buffer.from(candidate, 'hex'));
  });
  if (!matched) {
    return failure(
      'no_matching_signature',
      'no v1 signature matches: the body was changed, or it was signed with another secret',
    );
  }
  const tolerance = input.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const nowMs = input.now === undefined ? Date.now() : Number(input.now);
  const skewSeconds = nowMs / 1000 - parsed.timestamp;
  if (!(Math.abs(skewSeconds) <= tolerance)) {
    const when =
      skewSeconds > 0 ? `${Math.round(skewSeconds)} s old` : `${Math.round(-skewSeconds)} s in the future`;
    return failure(
      'timestamp_outside_tolerance',
      `the signature's timestamp is ${when}, outside the tolerance of ${tolerance} s (a replayed or delayed delivery, or a wrong clock)`,
    );
  }
  return { ok: true, timestamp: parsed.timestamp };
}

function failure(reason: VerifyFailureReason, message: string): VerifyResult {
  return { ok: false, reason, message };
}
