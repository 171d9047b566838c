import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  sign,
  verifySignature,
} from '../../../src/contract/signature.js';

const SECRET = 'whsec_test_0123456789abcdef';
const BODY =
  '{"id":"evt_1","object":"event","type":"order.created","created_at":"2026-11-01T09:00:00.000Z","data":{"object":{"id":"ord_1"}}}';
const T = 1_793_523_600; // 2026-11-01T09:00:00Z
const NOW_MS = T * 1000 + 5_000;

/** The contract's formula written out independently of the module under test. */
function reference(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

describe('sign', () => {
  it('produces t=<unix>,v1=<hex HMAC-SHA256(secret, "t.body")>', () => {
    expect(sign(SECRET, T, BODY)).toBe(`t=${T},v1=${reference(SECRET, T, BODY)}`);
    expect(computeSignature(SECRET, T, Buffer.from(BODY))).toBe(reference(SECRET, T, BODY));
  });
});

describe('verifySignature', () => {
  const header = `t=${T},v1=${reference(SECRET, T, BODY)}`;

  it('accepts a good delivery, as text or as bytes', () => {
    expect(verifySignature({ payload: BODY, header, secret: SECRET, now: NOW_MS })).toEqual({
      ok: true,
      timestamp: T,
    });
    expect(
      verifySignature({ payload: Buffer.from(BODY), header, secret: SECRET, now: new Date(NOW_MS) }).ok,
    ).toBe(true);
  });

  it('rejects a tampered body', () => {
    const tampered = BODY.replace('ord_1', 'ord_2');
    const result = verifySignature({ payload: tampered, header, secret: SECRET, now: NOW_MS });
    expect(result).toMatchObject({ ok: false, reason: 'no_matching_signature' });
  });

  it('rejects a body that differs only in whitespace (the raw body is what was signed)', () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifySignature({ payload: reserialised, header, secret: SECRET, now: NOW_MS }).ok).toBe(false);
  });

  it('rejects a wrong secret', () => {
    const result = verifySignature({ payload: BODY, header, secret: 'whsec_other', now: NOW_MS });
    expect(result).toMatchObject({ ok: false, reason: 'no_matching_signature' });
  });

  it('rejects a stale timestamp, and one too far in the future, beyond the default 300 s', () => {
    const stale = verifySignature({ payload: BODY, header, secret: SECRET, now: (T + 301) * 1000 });
    expect(stale).toMatchObject({ ok: false, reason: 'timestamp_outside_tolerance' });
    if (!stale.ok) expect(stale.message).toContain('301 s old');
    const future = verifySignature({ payload: BODY, header, secret: SECRET, now: (T - 301) * 1000 });
    expect(future).toMatchObject({ ok: false, reason: 'timestamp_outside_tolerance' });
    expect(verifySignature({ payload: BODY, header, secret: SECRET, now: (T + 300) * 1000 }).ok).toBe(true);
  });

  it('honours toleranceSeconds', () => {
    const now = (T + 60) * 1000;
    expect(verifySignature({ payload: BODY, header, secret: SECRET, now, toleranceSeconds: 30 }).ok).toBe(
      false,
    );
    expect(verifySignature({ payload: BODY, header, secret: SECRET, now, toleranceSeconds: 90 }).ok).toBe(
      true,
    );
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no timestamp', `v1=${reference(SECRET, T, BODY)}`],
    ['no v1', `t=${T}`],
    ['non-numeric timestamp', `t=soon,v1=${reference(SECRET, T, BODY)}`],
    ['two timestamps', `t=${T},t=${T + 1},v1=${reference(SECRET, T, BODY)}`],
    ['garbage', 'not a signature'],
  ])('rejects a malformed header (%s)', (_label, bad) => {
    const result = verifySignature({ payload: BODY, header: bad, secret: SECRET, now: NOW_MS });
    expect(result).toMatchObject({ ok: false, reason: 'malformed_header' });
  });

  it('accepts when one of two v1 entries matches (a secret being rolled), in either position', () => {
    const good = reference(SECRET, T, BODY);
    const old = reference('whsec_old', T, BODY);
    expect(
      verifySignature({ payload: BODY, header: `t=${T},v1=${old},v1=${good}`, secret: SECRET, now: NOW_MS })
        .ok,
    ).toBe(true);
    expect(
      verifySignature({ payload: BODY, header: `t=${T},v1=${good},v1=${old}`, secret: SECRET, now: NOW_MS })
        .ok,
    ).toBe(true);
    expect(
      verifySignature({ payload: BODY, header: `t=${T},v1=${old},v1=${old}`, secret: SECRET, now: NOW_MS })
        .ok,
    ).toBe(false);
  });

  it('ignores other schemes and a v1 that is not 64 hex digits', () => {
    const good = reference(SECRET, T, BODY);
    expect(
      verifySignature({ payload: BODY, header: `t=${T},v0=abc,v1=${good}`, secret: SECRET, now: NOW_MS }).ok,
    ).toBe(true);
    expect(
      verifySignature({
        payload: BODY,
        header: `t=${T},v1=${good.slice(0, 10)}`,
        secret: SECRET,
        now: NOW_MS,
      }).ok,
    ).toBe(false);
  });

  it('needs a secret', () => {
    expect(verifySignature({ payload: BODY, header, secret: '', now: NOW_MS })).toMatchObject({
      ok: false,
      reason: 'secret_missing',
    });
  });
});

describe('parseSignatureHeader', () => {
  it('reads t and every v1, tolerating spaces', () => {
    expect(parseSignatureHeader('t=12, v1=aa, v1=bb')).toEqual({ timestamp: 12, signatures: ['aa', 'bb'] });
  });
});
