import { afterAll, beforeAll, expect, it } from 'vitest';
import { get, startTestEmulator, type TestEmulator } from './helpers.js';

let test: TestEmulator;
beforeAll(async () => {
  test = await startTestEmulator();
});
afterAll(() => test.emulator.close());

interface OperationBody {
  id: string;
  status: string;
  completed_at: string | null;
  results: { status: string }[];
}

it('seeded operations under way end a minute after seeding, so waiting on one returns', async () => {
  const open = async () =>
    ((await get(test.emulator, '/operations?limit=100')).body as { data: OperationBody[] }).data.filter(
      (operation) => operation.status === 'pending' || operation.status === 'processing',
    );
  const before = await open();
  expect(before.length).toBeGreaterThan(0);
  test.clock.advance(30_000);
  expect((await open()).length).toBe(before.length);
  test.clock.advance(30_000);
  expect(await open()).toEqual([]);
  const ended = (await get(test.emulator, `/operations/${before[0].id}`)).body as OperationBody;
  expect(ended.status).toBe('succeeded');
  expect(ended.completed_at).not.toBeNull();
  expect(ended.results.every((result) => result.status !== 'pending' && result.status !== 'processing')).toBe(
    true,
  );
});
