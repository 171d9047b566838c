/**
 * `svc emulator start --host H`: on an address other machines can reach, a warning and random
 * keys unless --fixed-keys. Decided without listening anywhere: tests bind loopback only.
 */
import { describe, expect, it } from 'vitest';
import { isLoopbackName } from '../../../../src/client/proxy-route.js';
import { exposure } from '../../../../src/commands/emulator/start.js';

const decide = (host: string, fixedKeys?: boolean) => exposure(host, isLoopbackName(host), fixedKeys);

describe('emulator exposure', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', 'localhost'])(
    '%s is this machine: the seed keys, no warning',
    (host) => {
      expect(decide(host)).toEqual({ randomKeys: false });
    },
  );

  it.each(['0.0.0.0', '::', '192.0.2.2', '127.evil.invalid'])(
    '%s may be reached by others: random keys and a warning naming it',
    (host) => {
      const { randomKeys, warning } = decide(host);
      expect(randomKeys).toBe(true);
      expect(warning).toContain(`listening on ${host}, which other machines may reach`);
      expect(warning).toMatch(/keys are random for this run \(--fixed-keys keeps the seed's\)/);
    },
  );

  it('--fixed-keys keeps the seed keys there, still with the warning', () => {
    const { randomKeys, warning } = decide('0.0.0.0', true);
    expect(randomKeys).toBe(false);
    expect(warning).toMatch(/0\.0\.0\.0.*well-known keys of the seed are in use/);
  });
});
