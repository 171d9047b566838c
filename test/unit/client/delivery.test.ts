import { afterEach, describe, expect, it } from 'vitest';
import { Deliverer, policyBackoff } from '../../../src/client/delivery.js';
import { signedHeaders, verifySignature } from '../../../src/contract/signature.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';

const open: Array<Receiver | Deliverer> = [];
afterEach(async () => {
  await Promise.all(open.map((item) => item.close()));
  open.length = 0;
});

function deliverer(): Deliverer {
  const made = new Deliverer({ sleep: async () => {} });
  open.push(made);
  return made;
}

describe('Deliverer', () => {
  it('retries non-2xx answers until a 2xx, signing each attempt afresh', async () => {
    const receiver = await startReceiver((index) => (index < 2 ? 503 : 204));
    open.push(receiver);
    let clock = 1_793_523_600_000;
    const seen: number[] = [];
    const result = await deliverer().deliver(
      receiver.url,
      '{"id":"evt_1"}',
      () => {
        clock += 1000;
        return signedHeaders('whsec_x', '{"id":"evt_1"}', clock);
      },
      { attempts: 5, backoff: () => 0, onAttempt: (a) => seen.push(a.status ?? 0) },
    );
    expect(result).toMatchObject({ ok: true, status: 204, attempts: 3 });
    expect(seen).toEqual([503, 503, 204]);
    const stamps = receiver.received.map((r) => r.signature);
    expect(new Set(stamps).size).toBe(3);
    for (const r of receiver.received) {
      expect(
        verifySignature({ payload: r.body, header: r.signature, secret: 'whsec_x', now: clock }).ok,
      ).toBe(true);
    }
  });

  it('reports a receiver that never answers as a network failure after the time limit', async () => {
    const receiver = await startReceiver(() => 'hang');
    open.push(receiver);
    const result = await deliverer().deliver(
      receiver.url,
      '{}',
      {},
      { attempts: 2, timeoutMs: 100, backoff: () => 0 },
    );
    expect(result).toMatchObject({ ok: false, attempts: 2, failure: 'network' });
    expect(result.error?.message).toMatch(/did not answer within/);
  });

  it('stops when proceed() says so', async () => {
    const receiver = await startReceiver(() => 500);
    open.push(receiver);
    const result = await deliverer().deliver(
      receiver.url,
      '{}',
      {},
      { attempts: 5, backoff: () => 0, proceed: () => false },
    );
    expect(result.attempts).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('backoffs', () => {
  it('policyBackoff honours a receiver Retry-After, else uses jittered exponential backoff', () => {
    const backoff = policyBackoff(() => 0.5);
    expect(backoff(1, { attempt: 1, ok: false, elapsedMs: 0, retryAfterMs: 3000 })).toBe(3000);
    expect(backoff(1, { attempt: 1, ok: false, elapsedMs: 0 })).toBe(250);
    expect(backoff(3, { attempt: 3, ok: false, elapsedMs: 0 })).toBe(1000);
  });
});
