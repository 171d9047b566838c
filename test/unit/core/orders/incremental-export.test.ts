import { describe, expect, it } from 'vitest';
import type { PageInfo } from '../../../../src/client/client.js';
import type { Order } from '../../../../src/contract/schemas/order.js';
import { type ExportStart, IncrementalExport } from '../../../../src/core/orders/incremental-export.js';
import { SERVER_CLOCK_SLACK_MS } from '../../../../src/core/settled-crawl.js';
import { type ListEnvelope, paginate } from '../../../../src/emulator/http/pagination.js';
import { Rng } from '../../../../src/emulator/rng.js';
import { ProtocolError } from '../../../../src/errors.js';

const START = Date.UTC(2025, 5, 15, 12, 0, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

interface FakeOrder {
  id: string;
  object: 'order';
  channel_account_id: string;
  status: string;
  created_at: string;
  updated_at: string;
}

/**
 * An order list with the service's keyset semantics (the emulator's own pager), a clock that
 * moves 150 ms per request and a Date header of one-second resolution. `beforePage` runs
 * before every page after a pass's first, so tests can change orders mid-crawl.
 */
class FakeService {
  readonly orders = new Map<string, FakeOrder>();
  now = START;
  pageSize = 3;
  requests = 0;
  dateHeader = true;
  passes = 0;
  beforePage?: (pass: number, page: number) => void;
  private counter = 0;

  add(createdMs: number, updatedMs = createdMs): FakeOrder {
    const order: FakeOrder = {
      id: `ord_${String(++this.counter).padStart(5, '0')}`,
      object: 'order',
      channel_account_id: 'chac_1',
      status: 'awaiting_shipment',
      created_at: iso(createdMs),
      updated_at: iso(updatedMs),
    };
    this.orders.set(order.id, order);
    return order;
  }

  /** An order arriving now. */
  arrive(): FakeOrder {
    return this.add(this.now);
  }

  touch(id: string): void {
    const order = this.orders.get(id);
    if (order) order.updated_at = iso(this.now);
  }

  /** The ids in list order (updated_at descending). */
  listOrder(): string[] {
    return paginate(
      [...this.orders.values()],
      { key: (o) => o.updated_at, direction: 'desc' },
      { limit: 100_000, after: null },
    ).data.map((o) => o.id);
  }

  pass = (createdAfter: string | undefined, onPage: (page: PageInfo) => void): AsyncIterable<Order> => {
    const service = this;
    const pass = this.passes++;
    return (async function* () {
      let after: { key: string; id: string } | null = null;
      for (let page = 0; ; page++) {
        if (page > 0) service.beforePage?.(pass, page);
        service.now += 150;
        service.requests++;
        const envelope: ListEnvelope<FakeOrder> = paginate(
          [...service.orders.values()],
          { key: (o) => o.updated_at, direction: 'desc' },
          { limit: service.pageSize, after },
          (o) => createdAfter === undefined || o.created_at >= createdAfter,
        );
        const date = service.dateHeader ? new Date(Math.floor(service.now / 1000) * 1000) : undefined;
        onPage({ serverDate: date, count: envelope.data.length, hasMore: envelope.has_more });
        for (const order of envelope.data) yield structuredClone(order) as unknown as Order;
        const last: FakeOrder | undefined = envelope.data.at(-1);
        if (!envelope.has_more || !last) return;
        after = { key: last.updated_at, id: last.id };
      }
    })();
  };
}

async function exportOnce(service: FakeService, mark?: ExportStart, initialCreatedAfter?: string) {
  const run = new IncrementalExport(service.pass, { mark, initialCreatedAfter });
  const ids: string[] = [];
  for await (const order of run.orders()) ids.push(order.id);
  return { run, ids, next: run.nextMark() };
}

/** A store of `count` orders spread over the last day, every one older than a minute. */
function seeded(count: number): FakeService {
  const service = new FakeService();
  for (let i = 0; i < count; i++) {
    const created = START - 86_400_000 + i * 60_000;
    service.add(created, Math.min(START - 60_000, created + (i % 5) * 3_600_000));
  }
  return service;
}

describe('IncrementalExport', () => {
  it('exports every order on a first run and marks the crawl start by the service clock', async () => {
    const service = seeded(10);
    const { ids, next, run } = await exportOnce(service);
    expect(new Set(ids)).toEqual(new Set(service.orders.keys()));
    expect(ids).toHaveLength(10);
    // First page at START+150 ms: its Date header says START (second resolution), less the slack.
    expect(next?.createdAfter).toBe(iso(START - SERVER_CLOCK_SLACK_MS));
    expect(next?.boundaryIds).toEqual([]);
    expect(run.closingPasses).toBe(1);
  });

  it('starts a first run at the given created_after', async () => {
    const service = seeded(10);
    const since = [...service.orders.values()][6].created_at;
    const { ids } = await exportOnce(service, undefined, since);
    expect(ids.sort()).toEqual(['ord_00007', 'ord_00008', 'ord_00009', 'ord_00010']);
  });

  it('catches an order updated mid-crawl that jumped ahead of the cursor, and prints none twice', async () => {
    const service = seeded(12);
    const tail = service.listOrder().at(-1) as string;
    const head = service.listOrder()[0];
    service.beforePage = (pass, page) => {
      if (pass === 0 && page === 2) {
        service.touch(tail); // not yet reached: jumps behind the cursor's back
        service.touch(head); // already printed: comes round again
      }
    };
    const { ids, run } = await exportOnce(service);
    expect(run.caughtByClosingPasses).toBe(1);
    expect(ids.filter((id) => id === tail)).toHaveLength(1);
    expect(ids.filter((id) => id === head)).toHaveLength(1);
    expect(new Set(ids).size).toBe(12);
    expect(ids).toHaveLength(12);
    expect(run.closingPasses).toBeGreaterThanOrEqual(1);
  });

  it('without the closing pass the same crawl would have missed the order (the test is real)', async () => {
    const service = seeded(12);
    const tail = service.listOrder().at(-1) as string;
    service.beforePage = (pass, page) => {
      if (pass === 0 && page === 2) service.touch(tail);
    };
    const seen: string[] = [];
    for await (const order of service.pass(undefined, () => {})) seen.push(order.id);
    expect(seen).not.toContain(tail);
  });

  it('repeats the closing pass while it spans more than one page', async () => {
    const service = seeded(20);
    const order = service.listOrder();
    service.beforePage = (pass, page) => {
      // During the main crawl, 4 old orders jump ahead: more than a page of head to re-read.
      if (pass === 0 && page === 3) for (const id of order.slice(-4)) service.touch(id);
      // During the first closing pass, one more does.
      if (pass === 1 && page === 1) service.touch(order[10]);
    };
    const { ids, run } = await exportOnce(service);
    expect(ids).toHaveLength(20);
    expect(new Set(ids).size).toBe(20);
    expect(run.closingPasses).toBeGreaterThanOrEqual(2);
  });

  it('gives up with a ProtocolError when the list never settles, and offers no mark', async () => {
    const service = seeded(10);
    service.beforePage = () => {
      for (let i = 0; i < 4; i++) service.arrive();
    };
    const run = new IncrementalExport(service.pass, { maxClosingPasses: 3 });
    const consume = async () => {
      for await (const _ of run.orders()) {
        // drain
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(ProtocolError);
    expect(() => run.nextMark()).toThrow();
  });

  it('skips at the boundary what the previous run exported (created_after is inclusive)', async () => {
    const service = seeded(5);
    const first = await exportOnce(service);
    const markMs = Date.parse(first.next?.createdAfter as string);
    // An order created exactly at the mark, exported by the first run through the boundary list.
    const atMark = service.add(markMs);
    const mark: ExportStart = { createdAfter: iso(markMs), boundaryIds: [atMark.id] };
    const second = await exportOnce(service, mark);
    expect(second.ids).toEqual([]);
    expect(second.run.skippedAtBoundary).toBe(1);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'over several runs with arrivals between and during them and updates mid-crawl, exports each order exactly once (seed %i)',
    async (seed) => {
      const rng = new Rng(seed);
      const service = seeded(40);
      service.pageSize = 4;
      service.beforePage = () => {
        if (rng.chance(0.5)) service.arrive();
        if (rng.chance(0.5)) {
          const ids = [...service.orders.keys()];
          service.touch(ids[rng.int(0, ids.length - 1)]);
        }
      };
      const exported: string[] = [];
      let caught = 0;
      let mark: ExportStart | undefined;
      for (let run = 0; run < 6; run++) {
        const result = await exportOnce(service, mark);
        exported.push(...result.ids);
        caught += result.run.caughtByClosingPasses;
        mark = result.next;
        for (let i = 0; i < 3; i++) {
          service.now += 700;
          service.arrive();
        }
      }
      // A last run once things are quiet picks up whatever arrived after the previous one.
      service.beforePage = undefined;
      service.now += 5_000;
      exported.push(...(await exportOnce(service, mark)).ids);
      expect(exported.length).toBe(new Set(exported).size);
      expect(new Set(exported)).toEqual(new Set(service.orders.keys()));
      // The mid-crawl changes did hide orders from the main crawls.
      expect(caught).toBeGreaterThan(0);
    },
  );

  it('without a Date header, takes the newest change on the first page as the start', async () => {
    const service = seeded(6);
    service.dateHeader = false;
    const { ids, next } = await exportOnce(service);
    expect(ids).toHaveLength(6);
    const newest = Math.max(...[...service.orders.values()].map((o) => Date.parse(o.updated_at)));
    expect(next?.createdAfter).toBe(iso(newest - SERVER_CLOCK_SLACK_MS));
  });

  it('keeps the previous mark and its boundary when the service clock is behind it', async () => {
    const service = seeded(3);
    const ahead = START + 3_600_000;
    const mark: ExportStart = { createdAfter: iso(ahead), boundaryIds: ['ord_elsewhere'] };
    const { ids, next } = await exportOnce(service, mark);
    expect(ids).toEqual([]);
    expect(next).toEqual({ createdAfter: iso(ahead), boundaryIds: ['ord_elsewhere'] });
  });

  it('keeps the previous mark when an empty list without a Date header says nothing about time', async () => {
    const service = new FakeService();
    service.dateHeader = false;
    const mark: ExportStart = { createdAfter: iso(START), boundaryIds: ['ord_x'] };
    const { next } = await exportOnce(service, mark);
    expect(next).toEqual(mark);
    expect((await exportOnce(service)).next).toBeUndefined();
  });
});
