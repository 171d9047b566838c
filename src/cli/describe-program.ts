/**
 * Reads commander's command tree into the description the completion scripts and the command
 * reference are generated from (src/core/command-tree.ts).
 */
import type { Argument, Command, Option } from 'commander';
import type {
  CommandTree,
  TreeArgument,
  TreeCommand,
  TreeOption,
  ValueSource,
} from '../core/command-tree.js';
import { completionOf } from './command-builder.js';
import { argumentValue, flagValue } from './completion-hints.js';
import { GLOBAL_OPTION_SCOPES, HELP_TOPICS } from './help-topics.js';

/** The flags of the root that every command accepts: all but help and version. */
function isGlobal(option: Option, root: Command): boolean {
  const help = root.createHelp();
  return help.visibleOptions(root).includes(option) && !['--help', '--version'].includes(option.long ?? '');
}

/** Describes `program` and everything below it, leaving hidden commands and flags out. */
export function describeProgram(program: Command): CommandTree {
  const globals = program.options.filter((option) => isGlobal(option, program));
  return {
    root: describeCommand(program, [], new Set(globals)),
    globalOptions: globals.map((option) => describeOption(option, [])),
    topics: HELP_TOPICS,
    globalScopes: GLOBAL_OPTION_SCOPES,
  };
}

function describeCommand(command: Command, path: string[], globals: Set<Option>): TreeCommand {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  const names = subcommands.map((sub) => sub.name()).filter((name) => name !== 'help');
  return {
    name: command.name(),
    usage: help.commandUsage(command),
    description: command.summary() || command.description(),
    options: help
      .visibleOptions(command)
      .filter((option) => !globals.has(option))
      .map((option) => describeOption(option, path)),
    arguments: command.registeredArguments.map((argument) => describeArgument(argument, path)),
    helpText: helpAfterOptions(command),
    // What its help lists under "Global options": the ones that mean something to it.
    globals:
      command.commands.length === 0 && command.parent
        ? help.visibleGlobalOptions(command).map((option) => option.long ?? option.short ?? '')
        : undefined,
    commands: subcommands.map((sub) =>
      sub.name() === 'help' && sub.commands.length === 0
        ? helpCommand(sub, names)
        : describeCommand(sub, [...path, sub.name()], globals),
    ),
  };
}

/** commander's implicit `help [command]`, whose argument is one of its siblings. */
function helpCommand(help: Command, siblings: string[]): TreeCommand {
  return {
    name: 'help',
    usage: help.createHelp().commandUsage(help),
    description: help.description(),
    options: [],
    arguments: [
      {
        name: 'command',
        description: 'the command to show help for',
        required: false,
        variadic: false,
        value: { kind: 'choices', values: siblings },
      },
    ],
    helpText: '',
    commands: [],
  };
}

/** What `command --help` prints after its flags: the notes and examples of addHelpText. */
function helpAfterOptions(command: Command): string {
  let printed = '';
  const output = command.configureOutput();
  command.configureOutput({ ...output, writeOut: (text) => (printed += text) });
  try {
    command.outputHelp();
  } finally {
    command.configureOutput(output);
  }
  const core = command.helpInformation();
  const after = printed.slice(printed.indexOf(core) + core.length);
  return after.replace(/^\n+/, '').trimEnd();
}

/** The default `--help` shows beside a flag (commander's rule: a switch shows only true or false). */
function shownDefault(option: Option): string | undefined {
  if (option.defaultValue === undefined) return undefined;
  const shown = option.required || option.optional || typeof option.defaultValue === 'boolean';
  return shown ? option.defaultValueDescription || JSON.stringify(option.defaultValue) : undefined;
}

function describeOption(option: Option, path: string[]): TreeOption {
  const takesValue = option.required || option.optional;
  let value: ValueSource | undefined;
  if (takesValue) {
    value = option.argChoices
      ? { kind: 'choices', values: option.argChoices }
      : (completionOf(option) ?? flagValue(path, option.long ?? option.short ?? ''));
  }
  return {
    short: option.short,
    long: option.long,
    flags: option.flags,
    description: option.description,
    defaultValue: shownDefault(option),
    choices: option.argChoices,
    value,
  };
}

function describeArgument(argument: Argument, path: string[]): TreeArgument {
  return {
    name: argument.name(),
    description: argument.description,
    required: argument.required,
    choices: argument.argChoices,
    variadic: argument.variadic,
    value: argument.argChoices
      ? { kind: 'choices', values: argument.argChoices }
      : argumentValue(path, argument.name()),
  };
}
