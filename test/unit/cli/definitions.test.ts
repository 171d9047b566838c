/** What the kit makes of the definitions as a whole: the order `svc --help` lists them in, their --fields. */
import { describe, expect, it } from 'vitest';
import { buildProgram, commandsFor } from '../../../src/cli/program.js';
import { Context } from '../../../src/cmdutil/context.js';
import { memoryIO } from '../../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

describe('the command tree', () => {
  it('lists the top-level commands by group, each group in its own order', async () => {
    const program = await buildProgram(new Context(memoryIO(), {}));
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
    for (const entry of commandsFor()) {
      const { fields } = await entry.load();
      if (fields) expect((await fields()).length, entry.path.join(' ')).toBeGreaterThan(0);
    }
  });

  it("each manifest entry loads its command's definition, which says what the entry says", async () => {
    for (const entry of commandsFor()) {
      const definition = await entry.load();
      expect(definition.path, entry.path.join(' ')).toEqual(entry.path);
      expect(definition.description).toBe(entry.description);
      expect(definition.flags?.map((flag) => flag.flags)).toEqual(entry.flags?.map((flag) => flag.flags));
    }
    expect(
      commandsFor('orders')
        .map((entry) => entry.path.join(' '))
        .sort(),
    ).toEqual(['orders fulfill', 'orders get', 'orders list']);
    expect(commandsFor('ordrs')).toEqual([]);
  });
});
