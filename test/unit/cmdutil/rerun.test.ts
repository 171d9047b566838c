import { describe, expect, it } from 'vitest';
import { rerunCommand } from '../../../src/cmdutil/rerun.js';

describe('rerunCommand', () => {
  it('adds flags once, and quotes what the shell would change', () => {
    expect(rerunCommand(['inventory', 'push', 'stock file.csv', '--resume'], { add: ['--resume'] })).toBe(
      "svc inventory push 'stock file.csv' --resume",
    );
  });

  it('gives a flag of `set` its new value, written as the user wrote the flag', () => {
    const set = { '--since': '2026-11-01T09:00:00.000Z' };
    expect(rerunCommand(['events', 'replay', '--since', '24h', '--to', 'http://h/x'], { set })).toBe(
      'svc events replay --since 2026-11-01T09:00:00.000Z --to http://h/x',
    );
    expect(rerunCommand(['events', 'replay', '--since=24h'], { set })).toBe(
      'svc events replay --since=2026-11-01T09:00:00.000Z',
    );
    expect(rerunCommand(['events', 'replay'], { set })).toBe(
      'svc events replay --since 2026-11-01T09:00:00.000Z',
    );
  });
});
