import { describe, expect, it } from 'vitest';
import type { SharedStore } from '../../../../src/client/pacing/record-file.js';
import { StoreChoice } from '../../../../src/client/pacing/store-choice.js';

/** A store that is only what StoreChoice looks at: whether it comes back, and whether it is back. */
function store(where: string, back?: () => boolean): SharedStore {
  return { where, available: back } as unknown as SharedStore;
}

describe('which store a pacer shares through', () => {
  it('leaves a primary that comes back (Redis) for the fallback, and takes it up again once it is back', () => {
    let up = false;
    const redis = store('redis', () => up);
    const file = store('file');
    const choice = new StoreChoice(redis, file);
    expect(choice.afterFailure(redis, 1_000)).toEqual({ store: file, staleBefore: 1_000 });
    expect(choice.primaryBack()).toBeUndefined();
    // The file fails too: alone, still waiting for the primary, left since the first failure.
    expect(choice.afterFailure(file, 2_000)).toEqual({});
    up = true;
    expect(choice.primaryBack()).toEqual({ store: redis, staleBefore: 1_000 });
    expect(choice.primaryBack()).toBeUndefined();
  });

  it('a primary that does not come back (the state file) is left for good', () => {
    const file = store('file');
    const choice = new StoreChoice(file);
    expect(choice.afterFailure(file, 1_000)).toEqual({});
    expect(choice.primaryBack()).toBeUndefined();
  });
});
