import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeProgram } from '../../../src/cli/describe-program.js';
import { ORDER_STATUSES } from '../../../src/contract/contract.js';

/** A commander program shaped like svc's: global flags, a noun with verbs, a hidden helper. */
function program(): Command {
  const root = new Command('svc')
    .version('1.0.0', '-V, --version')
    .option('--profile <name>', 'profile to use')
    .addOption(new Option('-o, --output <format>', 'format').choices(['json', 'csv']))
    .option('--all', 'every page');
  const orders = root.command('orders').description('orders from every channel');
  orders
    .command('list')
    .description('list orders\nsecond line')
    .option('--status <status>', 'one status')
    .option('--file <f>', 'a file')
    .option('--note <text>', 'free text', 'x')
    .option('--secret <s>', 'hidden flag');
  orders.commands[0]?.options.at(-1)?.hideHelp();
  orders.commands[0]?.addHelpText('after', '\nExamples:\n  svc orders list --status shipped');
  orders.command('get').argument('<id>', 'order id');
  root.command('__complete', { hidden: true }).argument('<what>');
  root.command('completion').addArgument(new Argument('<shell>').choices(['bash', 'zsh']));
  return root;
}

describe('describeProgram', () => {
  const tree = describeProgram(program());

  it('splits global flags from the root flags (help and version)', () => {
    expect(tree.globalOptions.map((option) => option.long)).toEqual(['--profile', '--output', '--all']);
    expect(tree.root.options.map((option) => option.long)).toEqual(['--version', '--help']);
    expect(tree.globalOptions[0]?.value).toEqual({ kind: 'profiles' });
    expect(tree.globalOptions[1]?.value).toEqual({ kind: 'choices', values: ['json', 'csv'] });
    expect(tree.globalOptions[2]?.value).toBeUndefined();
  });

  it('leaves hidden commands and flags out, and adds a help command at each level', () => {
    expect(tree.root.commands.map((command) => command.name)).toEqual(['orders', 'completion', 'help']);
    const orders = tree.root.commands[0];
    expect(orders?.commands.map((command) => command.name)).toEqual(['list', 'get', 'help']);
    expect(orders?.commands[2]?.arguments[0]?.value).toEqual({ kind: 'choices', values: ['list', 'get'] });
    const list = orders?.commands[0];
    expect(list?.options.map((option) => option.long)).toEqual(['--status', '--file', '--note', '--help']);
  });

  it('gives flags and arguments their values: statuses by noun, files, choices', () => {
    const list = tree.root.commands[0]?.commands[0];
    expect(list?.options[0]?.value).toEqual({ kind: 'choices', values: ORDER_STATUSES });
    expect(list?.options[1]?.value).toEqual({ kind: 'file' });
    expect(list?.options[2]?.value).toEqual({ kind: 'none' });
    expect(tree.root.commands[1]?.arguments[0]?.value).toEqual({ kind: 'choices', values: ['bash', 'zsh'] });
  });

  it('refuses a --status whose noun has no status list, so the completion test names the gap', () => {
    const root = new Command('svc');
    root.command('widgets').command('list').option('--status <s>', 'status');
    expect(() => describeProgram(root)).toThrow(/widgets list --status: no status list for "widgets"/);
  });

  it('carries what --help says: usage, flags as written with their shown defaults, argument descriptions, notes', () => {
    const list = tree.root.commands[0]?.commands[0];
    expect(list?.usage).toBe('svc orders list [options]');
    expect(list?.options[2]).toMatchObject({
      flags: '--note <text>',
      description: 'free text',
      defaultValue: '"x"',
    });
    expect(list?.options[0]?.defaultValue).toBeUndefined();
    expect(list?.helpText).toBe('Examples:\n  svc orders list --status shipped');
    const get = tree.root.commands[0]?.commands[1];
    expect(get?.usage).toBe('svc orders get [options] <id>');
    expect(get?.arguments[0]).toMatchObject({ name: 'id', description: 'order id', required: true });
    expect(get?.helpText).toBe('');
    expect(tree.root.commands[1]?.arguments[0]?.choices).toEqual(['bash', 'zsh']);
    expect(tree.globalOptions[1]).toMatchObject({ flags: '-o, --output <format>', choices: ['json', 'csv'] });
  });
});
