import { describe, expect, it } from 'vitest';
import type { Order } from '../../../../src/contract/schemas/order.js';
import {
  AMBIGUOUS_REPEATS,
  type FulfillDeps,
  fulfillOne,
  fulfillShipments,
} from '../../../../src/core/orders/fulfill.js';
import type { Shipment } from '../../../../src/core/orders/shipments.js';
import { AmbiguousWriteError, ApiError } from '../../../../src/errors.js';

const shipment: Shipment = { line: 2, orderId: 'ord_1', trackingNumber: '1Z001', carrier: 'UPS' };

function order(fields: Partial<Order> = {}): Order {
  return {
    id: 'ord_1',
    object: 'order',
    channel_account_id: 'chac_1',
    status: 'awaiting_shipment',
    created_at: '2025-06-15T12:00:00.000Z',
    tracking: null,
    ...fields,
  };
}

const shipped = (number = '1Z001') =>
  order({ status: 'shipped', tracking: { number, carrier: 'UPS', url: null } });
const conflict = () =>
  new ApiError(409, {
    type: 'invalid_request_error',
    code: 'invalid_state',
    message: 'Order ord_1 is shipped.',
  });

/** Deps whose POST answers come from `posts` in turn (an Error is thrown) and whose GET returns `reads` in turn. */
function fakeDeps(posts: Array<Order | Error>, reads: Order[] = [], simulated = false) {
  const calls: { method: 'POST' | 'GET'; key?: string }[] = [];
  const deps: FulfillDeps = {
    simulated,
    newKey: () => `key_${calls.length}`,
    fulfill: async (_id, _tracking, key) => {
      calls.push({ method: 'POST', key });
      const next = posts.shift();
      if (!next) throw new Error('unexpected POST');
      if (next instanceof Error) throw next;
      return next;
    },
    get: async () => {
      calls.push({ method: 'GET' });
      const next = reads.shift();
      if (!next) throw new Error('unexpected GET');
      return next;
    },
  };
  return { deps, calls };
}

describe('fulfillOne', () => {
  it('ships an order awaiting shipment with one POST', async () => {
    const { deps, calls } = fakeDeps([shipped()]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome).toEqual({ index: 0, line: 2, key: 'ord_1', status: 'updated' });
    expect(calls).toEqual([{ method: 'POST', key: 'key_0' }]);
  });

  it('after an ambiguous failure reads the order back and does not send again when it shipped', async () => {
    const { deps, calls } = fakeDeps([new AmbiguousWriteError('dropped')], [shipped()]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome.status).toBe('updated');
    expect(result.readBack).toBe(true);
    expect(calls.map((c) => c.method)).toEqual(['POST', 'GET']);
  });

  it('repeats with the same Idempotency-Key when the read-back shows it was not applied', async () => {
    const { deps, calls } = fakeDeps([new AmbiguousWriteError('dropped'), shipped()], [order()]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome.status).toBe('updated');
    expect(calls).toEqual([
      { method: 'POST', key: 'key_0' },
      { method: 'GET' },
      { method: 'POST', key: 'key_0' },
    ]);
  });

  it(`gives up after ${AMBIGUOUS_REPEATS} repeats that stay ambiguous`, async () => {
    const posts = Array.from({ length: AMBIGUOUS_REPEATS + 1 }, () => new AmbiguousWriteError('dropped'));
    const reads = Array.from({ length: AMBIGUOUS_REPEATS + 1 }, () => order());
    const { deps, calls } = fakeDeps(posts, reads);
    await expect(fulfillOne(deps, shipment)).rejects.toBeInstanceOf(AmbiguousWriteError);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(AMBIGUOUS_REPEATS + 1);
  });

  it('counts an order already shipped with the same tracking number as skipped', async () => {
    const { deps } = fakeDeps([conflict()], [shipped()]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome.status).toBe('skipped');
    expect(result.outcome.message).toContain('1Z001');
  });

  it('fails an order shipped with another tracking number, naming it', async () => {
    const { deps } = fakeDeps([conflict()], [shipped('9400999')]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome).toMatchObject({ status: 'failed', code: 'invalid_state' });
    expect(result.outcome.message).toBe('order ord_1 was already shipped with tracking 9400999 (UPS)');
  });

  it('fails a canceled order', async () => {
    const { deps } = fakeDeps([conflict()], [order({ status: 'canceled' })]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome.status).toBe('failed');
    expect(result.outcome.message).toContain('is canceled');
  });

  it('fails an unknown order without reading it back', async () => {
    const missing = new ApiError(404, { code: 'resource_missing', message: 'No such order: ord_1.' });
    const { deps, calls } = fakeDeps([missing]);
    const result = await fulfillOne(deps, shipment);
    expect(result.outcome).toMatchObject({ status: 'failed', code: 'resource_missing' });
    expect(calls).toHaveLength(1);
  });

  it('lets run-wide errors through (a key without orders:write)', async () => {
    const forbidden = new ApiError(403, {
      type: 'authentication_error',
      code: 'scope_missing',
      message: 'needs orders:write',
    });
    const { deps } = fakeDeps([forbidden]);
    await expect(fulfillOne(deps, shipment)).rejects.toBe(forbidden);
  });

  it('marks test-key results simulated', async () => {
    const { deps } = fakeDeps([shipped()], [], true);
    expect((await fulfillOne(deps, shipment)).outcome.status).toBe('simulated');
  });
});

describe('fulfillShipments', () => {
  it('gives every order its own Idempotency-Key and one outcome', async () => {
    const keys: string[] = [];
    let n = 0;
    const deps: FulfillDeps = {
      simulated: false,
      newKey: () => `key_${n++}`,
      fulfill: async (id, _t, key) => {
        keys.push(key);
        return order({ id, status: 'shipped' });
      },
      get: async () => order(),
    };
    const shipments = ['a', 'b', 'c', 'd', 'e'].map((s, i) => ({
      ...shipment,
      line: i + 2,
      orderId: `ord_${s}`,
    }));
    const outcomes: string[] = [];
    await fulfillShipments(shipments, {
      deps,
      concurrency: 2,
      settle: (outcome) => outcomes.push(outcome.key),
    });
    expect(outcomes.sort()).toEqual(shipments.map((s) => s.orderId));
    expect(new Set(keys).size).toBe(5);
  });
});
