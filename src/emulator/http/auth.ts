/** API keys of the emulator: their modes, scopes, tiers and plan, and the checks that use them. */
import { randomInt } from 'node:crypto';
import {
  ERROR_CODES,
  ERROR_TYPES,
  type KeyMode,
  keyMode,
  RATE_TIERS,
  SCOPES,
  type Scope,
} from '../../contract/contract.js';
import { Rng } from '../rng.js';
import { HttpError } from './errors.js';

/** The names of the keys the emulator makes at start. */
export type KeyName = 'live' | 'test' | 'read_only' | 'trial' | 'lapsed';

/** An API key and everything the checks need to know about it. */
export interface ApiKeyRecord {
  secret: string;
  /** A label for logs and tests: one of the start-up names, or what `createKey` was given. */
  name: string;
  mode: KeyMode;
  scopes: ReadonlySet<Scope>;
  bucket: number;
  drainPerSecond: number;
  /** False for a canceled or lapsed subscription: every request is 403 plan_not_eligible. */
  planActive: boolean;
}

/** Options of a key made by `createKey`. */
export interface KeySpec {
  name?: string;
  mode?: KeyMode;
  scopes?: readonly Scope[];
  bucket?: number;
  drainPerSecond?: number;
  planActive?: boolean;
}

/** The keys of one emulator, findable by secret. */
export class KeyRing {
  private readonly bySecret = new Map<string, ApiKeyRecord>();
  private readonly token: () => string;

  constructor(
    seed: number,
    private readonly tier: { bucket: number; drainPerSecond: number },
    options: { random?: boolean } = {},
  ) {
    // Keys depend on the seed alone, not on how much data was seeded; random ones on nothing.
    const rng = new Rng(seed * 7919 + 17);
    this.token = options.random ? () => randomToken(KEY_LENGTH) : () => rng.token(KEY_LENGTH);
  }

  /** Make the five start-up keys: live, test, read_only, trial, lapsed. */
  createDefaults(): Record<KeyName, string> {
    return {
      live: this.create({ name: 'live' }),
      test: this.create({ name: 'test', mode: 'test' }),
      read_only: this.create({ name: 'read_only', scopes: ['products:read', 'orders:read'] }),
      trial: this.create({ name: 'trial', ...RATE_TIERS.trial }),
      lapsed: this.create({ name: 'lapsed', planActive: false }),
    };
  }

  /** Make a key; defaults: live, every scope, the configured tier, an active plan. */
  create(spec: KeySpec = {}): string {
    const mode = spec.mode ?? 'live';
    const secret = `svc_${mode}_${this.token()}`;
    this.bySecret.set(secret, {
      secret,
      name: spec.name ?? 'custom',
      mode,
      scopes: new Set(spec.scopes ?? SCOPES),
      bucket: spec.bucket ?? this.tier.bucket,
      drainPerSecond: spec.drainPerSecond ?? this.tier.drainPerSecond,
      planActive: spec.planActive ?? true,
    });
    return secret;
  }

  /** Make a key stop working at once, as rolling or revoking does. */
  revoke(secret: string): boolean {
    return this.bySecret.delete(secret);
  }

  /** The record of a secret, if the key exists. */
  get(secret: string): ApiKeyRecord | undefined {
    return this.bySecret.get(secret);
  }

  /**
   * The key an Authorization header names; 401 `api_key_missing` without one,
   * `api_key_invalid` for a malformed, unknown or revoked one.
   */
  authenticate(header: string | undefined): ApiKeyRecord {
    if (header === undefined || /^\s*(Bearer)?\s*$/i.test(header)) {
      throw new HttpError(
        401,
        ERROR_TYPES.authentication,
        ERROR_CODES.apiKeyMissing,
        'No API key provided. Send the header "Authorization: Bearer <API_KEY>".',
      );
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
    const secret = match?.[1];
    if (!secret || keyMode(secret) === undefined) {
      throw new HttpError(
        401,
        ERROR_TYPES.authentication,
        ERROR_CODES.apiKeyInvalid,
        'The Authorization header is not "Bearer svc_live_…" or "Bearer svc_test_…".',
      );
    }
    const record = this.bySecret.get(secret);
    if (!record) {
      throw new HttpError(
        401,
        ERROR_TYPES.authentication,
        ERROR_CODES.apiKeyInvalid,
        'Invalid API key: it is unknown, rolled or revoked.',
      );
    }
    return record;
  }
}

/** Characters after `svc_live_` or `svc_test_`. */
const KEY_LENGTH = 24;
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9] from the system's secure random source. */
function randomToken(length: number): string {
  return Array.from({ length }, () => TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)]).join('');
}

/** 403 `scope_missing`, naming the scope, unless the key holds it. */
export function requireScope(key: ApiKeyRecord, scope: Scope | null): void {
  if (scope === null || key.scopes.has(scope)) return;
  throw new HttpError(
    403,
    ERROR_TYPES.authentication,
    ERROR_CODES.scopeMissing,
    `This API key lacks the scope ${scope}, which this request needs.`,
  );
}

/** 403 `plan_not_eligible` for a key whose subscription is no longer live. */
export function requirePlan(key: ApiKeyRecord): void {
  if (key.planActive) return;
  throw new HttpError(
    403,
    ERROR_TYPES.permission,
    ERROR_CODES.planNotEligible,
    'The subscription of this store is not live (canceled or lapsed); renew it to use the API.',
  );
}
