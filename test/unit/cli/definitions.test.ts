/** What the kit makes of the definitions as a whole: the order `svc --help` lists them in, their --fields. */
import { describe, expect, it } from 'vitest';
import { buildProgram, commandsFor } from '../../../src/cli/program.js';
import { Context } from '../../../src/cmdutil/context.js';
import { COMMAND_WORDS } from '../../../src/commands/manifest.js';
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
    for (const definition of await commandsFor()) {
      if (definition.fields)
        expect((await definition.fields()).length, definition.path.join(' ')).toBeGreaterThan(0);
    }
  });

  it('each first word loads the definitions of its commands, and only those', async () => {
    const words = Object.keys(COMMAND_WORDS);
    expect(words).toEqual(expect.arrayContaining(['orders', 'products', 'api', '__complete']));
    for (const word of words) {
      const paths = (await commandsFor(word)).map((definition) => definition.path.join(' '));
      expect(paths.length, word).toBeGreaterThan(0);
      expect(paths.filter((path) => path.split(' ')[0] !== word)).toEqual([]);
    }
    expect((await commandsFor('orders')).map((definition) => definition.path.join(' ')).sort()).toEqual([
      'orders fulfill',
      'orders get',
      'orders list',
    ]);
    expect(await commandsFor('ordrs')).toEqual([]);
    expect((await commandsFor()).length).toBe(
      (await Promise.all(words.map((word) => commandsFor(word)))).flat().length,
    );
  });
});
