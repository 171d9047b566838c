import { describe, expect, it } from 'vitest';
import { type ChunkAnswer, type ChunkDone, sendChunks } from '../../../src/core/bulk.js';
import { AmbiguousWriteError, ApiError } from '../../../src/errors.js';

interface Item {
  line: number;
  key: string;
}

const items = (...keys: string[]): Item[] => keys.map((key, index) => ({ line: index + 2, key }));
const answered = (chunk: Item[]): ChunkAnswer => ({
  outcomes: chunk.map((item) => ({ line: item.line, key: item.key, status: 'updated' })),
});
const refusal = () => new ApiError(422, { code: 'invalid_batch', message: 'the batch is malformed' });

async function run(chunks: Item[][], options: Partial<Parameters<typeof sendChunks<Item>>[1]>) {
  const done: ChunkDone[] = [];
  await sendChunks(chunks, {
    concurrency: 1,
    simulated: false,
    send: async (chunk) => answered(chunk),
    onChunk: (chunk) => done.push(chunk),
    ...options,
  });
  return done;
}

describe('sendChunks', () => {
  it('hands on each chunk as it lands, with its place in the input', async () => {
    const done = await run([items('A', 'B'), items('C')], {});
    expect(done.map((chunk) => [chunk.index, chunk.outcomes.map((o) => o.key)])).toEqual([
      [0, ['A', 'B']],
      [1, ['C']],
    ]);
  });

  it('a chunk refused as a whole fails its items, and the run goes on', async () => {
    let calls = 0;
    const done = await run([items('A', 'B'), items('C')], {
      send: async (chunk) => {
        if (calls++ === 0) throw refusal();
        return answered(chunk);
      },
    });
    expect(done[0].outcomes).toEqual([
      { line: 2, key: 'A', status: 'failed', code: 'invalid_batch', message: 'the batch is malformed' },
      { line: 3, key: 'B', status: 'failed', code: 'invalid_batch', message: 'the batch is malformed' },
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

  it('after a lost answer, items the read-back found landed and only the rest go again', async () => {
    const sent: string[][] = [];
    const done = await run([items('A', 'B', 'C')], {
      send: async (chunk) => {
        sent.push(chunk.map((item) => item.key));
        if (sent.length === 1) throw new AmbiguousWriteError('lost');
        return answered(chunk);
      },
      readBack: async (chunk) => new Map([[chunk[1], 'id_b']]),
    });
    expect(sent).toEqual([
      ['A', 'B', 'C'],
      ['A', 'C'],
    ]);
    expect(done[0].outcomes).toEqual([
      { line: 2, key: 'A', status: 'updated' },
      { line: 3, key: 'B', status: 'created', message: 'id_b' },
      { line: 4, key: 'C', status: 'updated' },
    ]);
  });

  it('without a read-back a lost answer stops the run; keyOf names items without a key', async () => {
    const lost = run([items('A')], {
      send: async () => {
        throw new AmbiguousWriteError('lost');
      },
    });
    await expect(lost).rejects.toThrow(AmbiguousWriteError);
    const done: ChunkDone[] = [];
    await sendChunks([[{ line: 7, sku: 'SKU-1' }]], {
      concurrency: 1,
      simulated: true,
      keyOf: (row) => row.sku,
      send: async () => {
        throw refusal();
      },
      onChunk: (chunk) => done.push(chunk),
    });
    expect(done[0].outcomes[0]).toMatchObject({ line: 7, key: 'SKU-1', status: 'failed' });
  });
});
