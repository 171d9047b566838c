import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { definitionOf } from '../../../src/cli/command-builder.js';
import { flagsFor } from '../../../src/cli/command-scopes.js';
import { checkFields, commandPath, scopeOf } from '../../../src/cli/global-flags.js';
import { helpAsFlag } from '../../../src/cli/main.js';
import { buildProgram, commandsFor } from '../../../src/cli/program.js';
import { Context } from '../../../src/cmdutil/context.js';
import { closestValue } from '../../../src/cmdutil/filter-check.js';
import { command as completion } from '../../../src/commands/completion/completion.js';
import { command as emulatorStart } from '../../../src/commands/emulator/start.js';
import { command as eventsListen } from '../../../src/commands/events/listen.js';
import { command as productsDelete } from '../../../src/commands/products/delete.js';
import { knownField, schemaFields } from '../../../src/contract/schemas/fields.js';
import { Listing } from '../../../src/contract/schemas/listing.js';
import { Order } from '../../../src/contract/schemas/order.js';
import { UsageError } from '../../../src/errors.js';
import { memoryIO } from '../../helpers/memory-io.js';

(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

/** Every command that runs something, hidden ones included. */
function leaves(command: Command): Command[] {
  if (command.commands.length === 0) return [command];
  return command.commands.filter((sub) => sub.name() !== 'help').flatMap(leaves);
}

describe('command scopes', () => {
  let program: Command;
  beforeAll(async () => {
    program = await buildProgram(new Context(memoryIO(), {}));
  });
  /** The scope of the command at `path` (`orders list`), from its definition. */
  const scopeAt = (path: string) => {
    const command = leaves(program).find((leaf) => commandPath(leaf) === path);
    const scope = command && scopeOf(command);
    if (!scope) throw new Error(`no scope for ${path}`);
    return scope;
  };

  it('every command is built from a definition, which says which global flags mean something to it', () => {
    expect(
      leaves(program)
        .filter((command) => !definitionOf(command))
        .map(commandPath),
    ).toEqual([]);
  });

  it('lists take --all and --limit; prints of resources --fields; asking commands --yes', () => {
    expect(flagsFor(scopeAt('orders list'))).toEqual(
      new Set([
        'all',
        'limit',
        'fields',
        'output',
        'json',
        'query',
        'headers',
        'time',
        'excel',
        'decimalComma',
        'profile',
        'baseUrl',
        'maxRetries',
        'requestTimeout',
      ]),
    );
    expect(flagsFor({ ...emulatorStart.takes }).has('baseUrl')).toBe(false);
    expect(flagsFor(scopeAt('inventory set')).has('limit')).toBe(false);
    expect(flagsFor({ ...productsDelete.takes, fields: productsDelete.fields }).has('yes')).toBe(true);
    expect(flagsFor({ ...completion.takes }).has('output')).toBe(false);
    expect(flagsFor({ ...eventsListen.takes }).has('query')).toBe(false);
  });

  it('every declared field list loads', async () => {
    for (const entry of commandsFor()) {
      const { fields } = await entry.load();
      expect(fields !== undefined, entry.path.join(' ')).toBe(entry.fields === true);
      if (fields) expect((await fields()).length, entry.path.join(' ')).toBeGreaterThan(0);
    }
  });
});

describe('field paths', () => {
  it('come from the schema: nested objects and arrays of objects as dot paths, open maps as .*', () => {
    const order = schemaFields(Order);
    expect(order).toEqual(
      expect.arrayContaining(['id', 'buyer', 'buyer.address.postal_code', 'lines', 'lines.sku']),
    );
    const listing = schemaFields(Listing);
    expect(listing).toContain('attributes.*');
    expect(knownField('attributes.color', listing)).toBe(true);
    expect(knownField('attributes', listing)).toBe(true);
    expect(knownField('nope', listing)).toBe(false);
  });

  it('an unknown one is a usage error naming it and the closest', () => {
    const known = schemaFields(Order);
    expect(() => checkFields(['id', 'totl'], known, 'orders list', knownField, closestValue)).toThrow(
      '--fields: unknown field "totl" (did you mean "total"?) for svc orders list; `svc orders list --fields help` lists them',
    );
    expect(() =>
      checkFields(['id', 'lines.sku'], known, 'orders list', knownField, closestValue),
    ).not.toThrow();
    expect(() => checkFields(['nope'], known, 'orders list', knownField, closestValue)).toThrow(UsageError);
  });
});

describe('help', () => {
  it("svc help A B is svc A B --help, and svc help A is svc A --help; svc help alone stays commander's", () => {
    expect(helpAsFlag(['help', 'orders', 'list'])).toEqual(['orders', 'list', '--help']);
    expect(helpAsFlag(['help', 'orders'])).toEqual(['orders', '--help']);
    expect(helpAsFlag(['help'])).toEqual(['help']);
    expect(helpAsFlag(['orders', 'list'])).toEqual(['orders', 'list']);
  });

  it('a command lists under Global options only the global flags it takes; a noun none', async () => {
    const io = memoryIO();
    const program = await buildProgram(new Context(io, {}));
    const noun = program.commands.find((command) => command.name() === 'inventory') as Command;
    const set = noun.commands.find((command) => command.name() === 'set') as Command;
    const help = set.helpInformation();
    expect(help).toContain('Global options:');
    expect(help).toContain('--profile');
    expect(help).not.toContain('--limit');
    expect(noun.helpInformation()).not.toContain('Global options:');
  });
});

describe('the format asked for, before commander has read it', () => {
  it('reads -o, --output and --json from the words', async () => {
    const { formatInArgs } = await import('../../../src/cli/main.js');
    expect(formatInArgs(['orders', 'list', '--time', 'foo', '-o', 'json'])).toEqual({ output: 'json' });
    expect(formatInArgs(['--output=csv', 'orders'])).toEqual({ output: 'csv' });
    expect(formatInArgs(['--json'])).toEqual({ json: true });
    expect(formatInArgs(['api', '--', '--json'])).toEqual({});
  });
});
