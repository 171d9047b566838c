import { afterEach, describe, expect, it, vi } from 'vitest';
import { capYoungGeneration } from '../../../src/cli/v8-flags.js';

describe('capYoungGeneration', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops the young generation growing once it reached 16 MB, with one watch a process', () => {
    vi.useFakeTimers();
    let young = 2 * 2 ** 20;
    const flags: string[] = [];
    const v8 = {
      getHeapSpaceStatistics: () =>
        [{ space_name: 'new_space', space_size: young }] as ReturnType<
          typeof import('node:v8').getHeapSpaceStatistics
        >,
      setFlagsFromString: (flag: string) => {
        flags.push(flag);
      },
    };
    capYoungGeneration(v8);
    capYoungGeneration(v8);
    vi.advanceTimersByTime(500);
    expect(flags).toEqual([]);
    young = 16 * 2 ** 20;
    vi.advanceTimersByTime(500);
    expect(flags).toEqual(['--semi-space-growth-factor=1']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
