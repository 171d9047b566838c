import type { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { buildProgram, nounNamed } from '../../../src/cli/program.js';
import { Context } from '../../../src/cmdutil/context.js';
import { memoryIO } from '../../helpers/memory-io.js';

// Replaced at build time by esbuild; in-process tests define it themselves.
(globalThis as { __SVC_VERSION__?: string }).__SVC_VERSION__ ??= '0.0.0-test';

/** The leaf commands (those that run something) under `command`, with their paths. */
function leaves(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  const visible = command.createHelp().visibleCommands(command);
  if (command.commands.length === 0) return [{ path: path.join(' '), command }];
  return visible.filter((sub) => sub.name() !== 'help').flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

/** What `svc ARGS` prints and returns, run in-process. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO();
  const code = await main(['node', 'svc', ...args], { io, env: { NO_COLOR: '1' } });
  return { code, out: io.out(), err: io.err() };
}

let io: ReturnType<typeof memoryIO>;
let program: Command;
beforeAll(async () => {
  io = memoryIO();
  program = await buildProgram(new Context(io, {}));
});

/** The full `--help` text of one command, as commander prints it (addHelpText included). */
function helpOf(command: Command): string {
  const before = io.out().length;
  command.outputHelp();
  return io.out().slice(before);
}

describe('every command teaches', () => {
  it('the tree has the commands the guide lists', () => {
    const paths = leaves(program).map((leaf) => leaf.path);
    expect(paths).toEqual(expect.arrayContaining(['orders list', 'inventory push', 'completion', 'api']));
    expect(paths.length).toBeGreaterThan(40);
  });

  it('each leaf command has a one-line purpose, its flags, and an example that runs it', () => {
    const gaps: string[] = [];
    for (const { path, command } of leaves(program)) {
      const help = helpOf(command);
      const purpose = command.description().split('\n')[0]?.trim() ?? '';
      if (purpose.length < 10) gaps.push(`svc ${path}: no one-line description`);
      if (!/^Options:$/m.test(help)) gaps.push(`svc ${path}: no Options section`);
      // Example sections: a heading line starting with "Example", then indented lines.
      const examples = [...help.matchAll(/^Examples?\b[^\n]*:\n((?:[ \t]+\S.*\n?)+)/gm)].map(
        (match) => match[1],
      );
      if (examples.length === 0) {
        gaps.push(`svc ${path}: no "Example:" section (addHelpText('after', ...))`);
      } else if (!examples.some((lines) => lines?.includes(`svc ${path}`))) {
        gaps.push(`svc ${path}: no example runs svc ${path}`);
      }
    }
    expect(gaps).toEqual([]);
  });
});

describe('svc --help', () => {
  it('groups commands by what operators do, in that order', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    const headings = out.split('\n').filter((line) => /^[A-Z][a-z]+:$/.test(line));
    expect(headings).toEqual([
      'Options:',
      'Catalog:',
      'Inventory:',
      'Listings:',
      'Orders:',
      'Events:',
      'Setup:',
      'Examples:',
    ]);
    expect(out).toContain('Run `svc COMMAND --help` for its flags and examples');
    const groupOf = (noun: string) => {
      const at = out.split('\n').findIndex((line) => line.startsWith(`  ${noun} `));
      expect(at, `${noun} is listed`).toBeGreaterThan(0);
      return out
        .split('\n')
        .slice(0, at)
        .reverse()
        .find((line) => /^[A-Z][a-z]+:$/.test(line));
    };
    expect(['products', 'files', 'channels'].map(groupOf)).toEqual(['Catalog:', 'Catalog:', 'Catalog:']);
    expect(groupOf('inventory')).toBe('Inventory:');
    expect(['listings', 'operations'].map(groupOf)).toEqual(['Listings:', 'Listings:']);
    expect(groupOf('orders')).toBe('Orders:');
    expect(['events', 'webhooks'].map(groupOf)).toEqual(['Events:', 'Events:']);
    for (const noun of ['auth', 'profiles', 'status', 'health', 'api', 'emulator', 'completion']) {
      expect(groupOf(noun)).toBe('Setup:');
    }
    expect(out).not.toContain('__complete');
  });

  it('a noun lists its own verbs under Commands, with its own help command', async () => {
    const { code, out } = await run(['orders', '--help']);
    expect(code).toBe(0);
    const commands = out.slice(out.indexOf('\nCommands:\n'));
    expect([...commands.matchAll(/^ {2}(\w+)/gm)].map((match) => match[1])).toEqual([
      'list',
      'get',
      'fulfill',
      'help',
    ]);
    expect(commands).toContain('display help for command');
    expect(
      out.trimEnd().endsWith("Run `svc orders COMMAND --help` for a command's flags and examples."),
    ).toBe(true);
  });
});

describe('typos suggest the closest command', () => {
  it.each([
    [['ordrs', 'list'], "unknown command 'ordrs' (Did you mean orders?)"],
    [['orders', 'lsit'], "unknown command 'lsit' (Did you mean list?)"],
    [['products', 'images', 'ad', 'prod_1'], "unknown command 'ad' (Did you mean add?)"],
    [['--json', 'webhooks', 'veify'], "unknown command 'veify' (Did you mean verify?)"],
  ])('svc %s', async (args, message) => {
    const { code, err, out } = await run(args);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });
});

describe('only the named noun is registered', () => {
  it('finds the noun after global flags and their values', () => {
    const root = program;
    expect(nounNamed(root, ['orders', 'list'])).toBe('orders');
    expect(nounNamed(root, ['--profile', 'orders', 'listings', 'list'])).toBe('listings');
    expect(nounNamed(root, ['-o', 'json', '--all', 'products', 'list'])).toBe('products');
    expect(nounNamed(root, ['--output=json', 'events', 'list'])).toBe('events');
    expect(nounNamed(root, ['__complete', 'profiles'])).toBe('__complete');
  });

  it('registers everything for root help, `help NOUN` and typos', () => {
    expect(nounNamed(program, [])).toBeUndefined();
    expect(nounNamed(program, ['--help'])).toBeUndefined();
    expect(nounNamed(program, ['help', 'orders'])).toBeUndefined();
    expect(nounNamed(program, ['ordrs'])).toBeUndefined();
    expect(nounNamed(program, ['--', 'orders'])).toBeUndefined();
  });

  it('registers the one noun, whose help is the same as in the whole tree', async () => {
    const lazyIO = memoryIO();
    const lazy = await buildProgram(new Context(lazyIO, {}), ['orders', 'list', '--help']);
    expect(lazy.commands.map((command) => command.name())).toEqual(['orders']);
    const lazyList = lazy.commands[0]?.commands.find((command) => command.name() === 'list');
    const fullList = program.commands
      .find((command) => command.name() === 'orders')
      ?.commands.find((command) => command.name() === 'list');
    lazyList?.outputHelp();
    expect(fullList && helpOf(fullList)).toBe(lazyIO.out());
  });

  it('registers only the command named, even svc __complete and svc __docs (they ask for the whole tree when they run)', async () => {
    for (const args of [['__complete', 'profiles'], ['__docs'], ['completion', 'bash']]) {
      const lazy = await buildProgram(new Context(memoryIO(), {}), args);
      expect(lazy.commands.map((command) => command.name())).toEqual([args[0]]);
    }
  });

  it('describes every command to a run, whatever part of the tree it registered', async () => {
    const ctx = new Context(memoryIO(), {});
    await buildProgram(ctx, ['__docs']);
    const tree = await ctx.commandTree();
    const names = tree.root.commands.map((command) => command.name);
    expect(names).toEqual(expect.arrayContaining(['orders', 'inventory', 'completion', 'api', 'help']));
    expect(names).not.toContain('__docs');
  });
});
