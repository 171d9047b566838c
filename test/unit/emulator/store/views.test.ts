// An event's snapshot of a record: a deep copy that later changes to the record do not reach.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../../../src/emulator/store/views.js';

describe('snapshot', () => {
  it('equals any JSON value it copies and shares no object or array with it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = snapshot(value);
        expect(copy).toStrictEqual(value);
        const originals = new Set<unknown>();
        const collect = (node: unknown) => {
          if (node === null || typeof node !== 'object') return;
          originals.add(node);
          for (const child of Object.values(node)) collect(child);
        };
        collect(value);
        const shared = (node: unknown): boolean =>
          node !== null &&
          typeof node === 'object' &&
          (originals.has(node) || Object.values(node).some(shared));
        expect(shared(copy)).toBe(false);
      }),
    );
  });
});
