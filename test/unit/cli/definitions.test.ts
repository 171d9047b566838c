/** What the kit makes of the definitions as a whole: the order `svc --help` lists them in, their --fields. */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { Context } from '../../../src/cmdutil/context.js';
import { COMMANDS } from '../../../src/commands/manifest.js';
import { memoryIO } from '../../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

describe('the command tree', () => {
  it('lists the top-level commands by group, each group in its own order', () => {
    const program = buildProgram(new Context(memoryIO(), {}));
    const names = program
      .createHelp()
      .visibleCommands(program)
      .map((command) => command.name());
    expect(names).toEqual([
      'products',
      'files',
      'channels',
      'inventory',
      'listings',
      'operations',
      'orders',
      'events',
      'webhooks',
      'auth',
      'profiles',
      'doctor',
      'quota',
      'status',
      'health',
      'version',
      'api',
      'emulator',
      'completion',
      'help',
    ]);
  });

  it("every definition's --fields list loads", async () => {
    for (const definition of COMMANDS) {
      if (definition.fields)
        expect((await definition.fields()).length, definition.path.join(' ')).toBeGreaterThan(0);
    }
  });
});
