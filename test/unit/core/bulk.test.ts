import { describe, expect, it } from 'vitest';
import {
  type BatchEntry,
  batchOutcomes,
  type ChunkAnswer,
  type ChunkDone,
  runItems,
  sendChunks,
} from '../../../src/core/bulk.js';
import type { ItemOutcome } from '../../../src/core/outcomes.js';
import { AmbiguousWriteError, ApiError, QuotaError } from '../../../src/errors.js';

interface Item {
  index: number;
  line: number;
  key: string;
}

const items = (...keys: string[]): Item[] => keys.map((key, index) => ({ index, line: index + 2, key }));
const answered = (chunk: Item[]): ChunkAnswer => ({
  outcomes: chunk.map((item) => ({ index: item.index, line: item.line, key: item.key, status: 'updated' })),
});
const refusal = () => new ApiError(422, { code: 'invalid_batch', message: 'the batch is malformed' });
const quota = () => new QuotaError('the daily write quota is used up', new Date(0));

async function run(chunks: Item[][], options: Partial<Parameters<typeof sendChunks<Item>>[1]>) {
  const done: ChunkDone[] = [];
  const settled: ItemOutcome[] = [];
  await sendChunks(chunks, {
    concurrency: 1,
    simulated: false,
    send: async (chunk) => answered(chunk),
    settle: (outcomes) => settled.push(...outcomes),
    onChunk: (chunk) => done.push(chunk),
    ...options,
  });
  return { done, settled };
}

/** The last outcome settled for each item, by index. */
const finalOf = (settled: ItemOutcome[]) => {
  const last = new Map<number, ItemOutcome>();
  for (const outcome of settled) last.set(outcome.index, outcome);
  return [...last.values()].sort((a, b) => a.index - b.index);
};

describe('sendChunks', () => {
  it('hands on each chunk as it lands, with its place in the input', async () => {
    const all = items('A', 'B', 'C');
    const { done } = await run([all.slice(0, 2), all.slice(2)], {});
    expect(done.map((chunk) => [chunk.index, chunk.outcomes.map((o) => o.key)])).toEqual([
      [0, ['A', 'B']],
      [1, ['C']],
    ]);
  });

  it('a chunk refused as a whole fails its items, and the run goes on', async () => {
    let calls = 0;
    const all = items('A', 'B', 'C');
    const { done } = await run([all.slice(0, 2), all.slice(2)], {
      send: async (chunk) => {
        if (calls++ === 0) throw refusal();
        return answered(chunk);
      },
    });
    expect(done[0].outcomes).toEqual([
      {
        index: 0,
        line: 2,
        key: 'A',
        status: 'failed',
        code: 'invalid_batch',
        message: 'the batch is malformed',
      },
      {
        index: 1,
        line: 3,
        key: 'B',
        status: 'failed',
        code: 'invalid_batch',
        message: 'the batch is malformed',
      },
    ]);
    expect(done[1].outcomes[0].status).toBe('updated');
  });

  it('with refusalStops a refused chunk stops the run instead (a journal never confirms it)', async () => {
    const sending = run([items('A')], {
      refusalStops: true,
      send: async () => {
        throw refusal();
      },
    });
    await expect(sending).rejects.toThrow(ApiError);
  });

  it('after a lost answer, items the read-back found landed, unconfirmed ones stay out, only the rest go again', async () => {
    const sent: string[][] = [];
    const all = items('A', 'B', 'C', 'D');
    const { done } = await run([all], {
      send: async (chunk) => {
        sent.push(chunk.map((item) => item.key));
        if (sent.length === 1) throw new AmbiguousWriteError('lost');
        return answered(chunk);
      },
      readBack: async (chunk) => ({
        applied: new Map([[chunk[1], 'id_b']]),
        unconfirmed: new Map([[chunk[3], 'cannot tell; check it']]),
      }),
    });
    expect(sent).toEqual([
      ['A', 'B', 'C', 'D'],
      ['A', 'C'],
    ]);
    expect(done[0].outcomes).toEqual([
      { index: 0, line: 2, key: 'A', status: 'updated' },
      { index: 1, line: 3, key: 'B', status: 'created', message: 'id_b' },
      { index: 2, line: 4, key: 'C', status: 'updated' },
      {
        index: 3,
        line: 5,
        key: 'D',
        status: 'failed',
        code: 'write_unconfirmed',
        message: 'cannot tell; check it',
      },
    ]);
  });

  it('without a read-back a lost answer stops the run, its items unconfirmed; keyOf names items without a key', async () => {
    const settled: ItemOutcome[] = [];
    const lost = sendChunks([items('A')], {
      concurrency: 1,
      simulated: false,
      send: async () => {
        throw new AmbiguousWriteError('lost');
      },
      settle: (outcomes) => settled.push(...outcomes),
    });
    await expect(lost).rejects.toThrow(AmbiguousWriteError);
    expect(settled).toEqual([
      expect.objectContaining({ key: 'A', status: 'failed', code: 'write_unconfirmed' }),
    ]);
    const { done } = await run([[{ index: 0, line: 7, sku: 'SKU-1' } as unknown as Item]], {
      simulated: true,
      keyOf: (row) => (row as unknown as { sku: string }).sku,
      send: async () => {
        throw refusal();
      },
    });
    expect(done[0].outcomes[0]).toMatchObject({ index: 0, line: 7, key: 'SKU-1', status: 'failed' });
  });

  it('a quota stop settles every item: answered ones as answered, the refused chunk and the rest not sent', async () => {
    const all = items('A', 'B', 'C', 'D', 'E', 'F');
    const settled: ItemOutcome[] = [];
    let calls = 0;
    const sending = sendChunks([all.slice(0, 2), all.slice(2, 4), all.slice(4)], {
      concurrency: 1,
      simulated: false,
      send: async (chunk) => {
        if (calls++ === 1) throw quota();
        return answered(chunk);
      },
      settle: (outcomes) => settled.push(...outcomes),
    });
    await expect(sending).rejects.toMatchObject({ reason: expect.any(QuotaError) });
    expect(finalOf(settled).map((o) => [o.key, o.status, o.code ?? null])).toEqual([
      ['A', 'updated', null],
      ['B', 'updated', null],
      ['C', 'not_sent', 'write_quota_exceeded'],
      ['D', 'not_sent', 'write_quota_exceeded'],
      ['E', 'not_sent', null],
      ['F', 'not_sent', null],
    ]);
  });
});

describe('runItems', () => {
  it('settles what each item answered, and every item a stop left', async () => {
    const settled: ItemOutcome[] = [];
    const keys = ['a', 'b', 'c', 'd'];
    const running = runItems(
      keys,
      async (key, index) => {
        if (key === 'b') throw quota();
        return { index, key, status: 'updated' };
      },
      {
        concurrency: 1,
        settle: (outcome) => settled.push(outcome),
        describe: (key) => ({ key }),
      },
    );
    await expect(running).rejects.toMatchObject({ reason: expect.any(QuotaError) });
    expect(finalOf(settled).map((o) => [o.index, o.key, o.status, o.line])).toEqual([
      [0, 'a', 'updated', undefined],
      [1, 'b', 'not_sent', undefined],
      [2, 'c', 'not_sent', undefined],
      [3, 'd', 'not_sent', undefined],
    ]);
  });
});

describe('batchOutcomes', () => {
  const rows = items('A', 'B', 'C', 'D');
  it('reads every kind of batch answer one way: missing, failed, done already, or the status and id', () => {
    const answers = new Map<string, BatchEntry>([
      ['A', { status: 'created', id: 'prod_a' }],
      ['B', { status: 'failed', error: { code: 'validation_failed', message: 'no title' } }],
      ['C', { status: 'failed', error: { code: 'listing_exists', message: 'already listed' } }],
    ]);
    const outcomes = batchOutcomes(rows, (item) => answers.get(item.key), {
      simulated: false,
      noun: 'listing',
      alreadyDone: (entry) => entry.error?.code === 'listing_exists',
    });
    expect(outcomes.map((o) => [o.key, o.status, o.code ?? null, o.message ?? null])).toEqual([
      ['A', 'created', null, 'prod_a'],
      ['B', 'failed', 'validation_failed', 'no title'],
      ['C', 'skipped', 'listing_exists', 'already listed'],
      ['D', 'failed', 'missing_result', 'the service sent no result for this listing'],
    ]);
    expect(
      batchOutcomes(rows.slice(0, 1), () => ({ status: 'updated' }), { simulated: true, noun: 'SKU' }),
    ).toEqual([{ index: 0, line: 2, key: 'A', status: 'simulated' }]);
  });
});
