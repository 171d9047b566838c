import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { collectFault, parseFault } from '../../../../src/cmdutil/emulator/fault-flag.js';

describe('--fault', () => {
  it('parses method, exact path, kind, times and Retry-After', () => {
    expect(parseFault('post:/inventory/batch:service_unavailable:3:2')).toEqual({
      method: 'POST',
      path: '/inventory/batch',
      kind: 'service_unavailable',
      times: 3,
      retryAfter: 2,
    });
  });

  it('takes * as any method, globs in paths, and milliseconds for delay', () => {
    const spec = parseFault('*:/orders*:delay:1:1500');
    expect(spec.method).toBeUndefined();
    expect(spec.delayMs).toBe(1500);
    expect(spec.path).toBeInstanceOf(RegExp);
    expect((spec.path as RegExp).test('/orders/ord_1')).toBe(true);
    expect((spec.path as RegExp).test('/products')).toBe(false);
  });

  it('defaults to one hit and collects repeats in order', () => {
    const specs = collectFault('GET:/orders:drop_after', collectFault('GET:/health:internal_error'));
    expect(specs.map((s) => [s.kind, s.times])).toEqual([
      ['internal_error', 1],
      ['drop_after', 1],
    ]);
  });

  it('refuses unknown kinds, relative paths and non-numeric counts with the expected form', () => {
    for (const bad of ['POST:/x:explode', 'POST:x:drop_after', 'POST:/x:drop_after:two', 'POST']) {
      expect(() => parseFault(bad)).toThrow(InvalidArgumentError);
    }
    expect(() => parseFault('POST:/x:boom')).toThrow(/METHOD:PATH:KIND/);
  });
});
