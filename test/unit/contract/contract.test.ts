// The pinned contract choices (src/contract/contract.ts).
import { describe, expect, it } from 'vitest';
import { keyMode, maskKey, msUntilUtcMidnight, webhookRetryDelayMs } from '../../../src/contract/contract.js';

describe('keyMode', () => {
  it('reads the mode of a well-formed key', () => {
    expect(keyMode('svc_live_abc123XYZ_9')).toBe('live');
    expect(keyMode('svc_test_abc123')).toBe('test');
  });

  it.each([
    'svc_prod_abc123',
    'svc_live_',
    'SVC_LIVE_abc',
    'svc_live_abc-123',
    'svc_live_abc 123',
    ' svc_live_abc',
    'svc_live_abc\n',
    'sk_live_abc123',
    '',
  ])('is undefined for the malformed key %j', (key) => {
    expect(keyMode(key)).toBeUndefined();
  });
});

describe('maskKey', () => {
  const secret = 'AbCdEfGhIjKlMnOpQrStUv9876';

  it('shows only the prefix and the last four characters', () => {
    expect(maskKey(`svc_live_${secret}`)).toBe('svc_live_…9876');
    expect(maskKey(`svc_test_${secret}`)).toBe('svc_test_…9876');
  });

  it('never contains the hidden part of the key', () => {
    const masked = maskKey(`svc_live_${secret}`);
    expect(masked).not.toContain(secret.slice(0, -4));
    expect(masked).not.toContain('AbCd');
    for (let i = 0; i + 5 <= secret.length; i++) expect(masked).not.toContain(secret.slice(i, i + 5));
  });

  it('shows at most four characters of the part after the prefix, whatever its length', () => {
    for (let length = 1; length <= 40; length++) {
      const body = 'x'.repeat(length);
      const masked = maskKey(`svc_live_${body}`);
      expect(masked.startsWith('svc_live_…')).toBe(true);
      expect(masked.length - 'svc_live_…'.length).toBeLessThanOrEqual(4);
    }
  });

  it('never shows a short key whole', () => {
    expect(maskKey('svc_live_abcd')).toBe('svc_live_…');
    expect(maskKey('svc_live_abcdefg')).toBe('svc_live_…');
    expect(maskKey('svc_live_abcdefgh')).toBe('svc_live_…efgh');
    expect(maskKey('abc')).toBe('…');
    expect(maskKey('short-secret')).toBe('shor…cret');
    expect(maskKey('hunter2!')).toBe('…er2!');
    expect(maskKey('hunter2')).toBe('…');
    expect(maskKey('')).toBe('…');
  });

  it('shows a malformed long key as its first and last four characters', () => {
    const pasted = 'sk_live_51Habcdefghijklmnopqrstuv';
    expect(maskKey(pasted)).toBe('sk_l…stuv');
    expect(maskKey(pasted)).not.toContain('51Habcdefghijklmnopqr');
  });
});

describe('msUntilUtcMidnight', () => {
  it('counts to the next 00:00 UTC', () => {
    expect(msUntilUtcMidnight(Date.parse('2026-11-10T20:00:00.000Z'))).toBe(4 * 3_600_000);
    expect(msUntilUtcMidnight(Date.parse('2026-11-10T23:59:59.999Z'))).toBe(1);
    expect(msUntilUtcMidnight(Date.parse('2026-11-10T00:00:00.001Z'))).toBe(86_400_000 - 1);
  });

  it('counts a whole day from midnight itself', () => {
    expect(msUntilUtcMidnight(Date.parse('2026-11-10T00:00:00.000Z'))).toBe(86_400_000);
  });

  it('crosses month and year ends', () => {
    expect(msUntilUtcMidnight(Date.parse('2026-12-31T18:00:00.000Z'))).toBe(6 * 3_600_000);
    expect(msUntilUtcMidnight(Date.parse('2028-02-28T12:00:00.000Z'))).toBe(12 * 3_600_000);
  });
});

describe('webhookRetryDelayMs', () => {
  it('follows the delivery schedule and repeats its last step', () => {
    expect([1, 2, 3].map(webhookRetryDelayMs)).toEqual([60_000, 300_000, 1_800_000]);
    expect(webhookRetryDelayMs(99)).toBe(86_400_000);
  });
});
