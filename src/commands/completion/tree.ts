/** Reads commander's command tree into the shell-neutral description the generators take. */
import type { Argument, Command, Option } from 'commander';
import type {
  CompletionArgument,
  CompletionCommand,
  CompletionOption,
  CompletionTree,
  ValueSource,
} from '../../core/completion/model.js';
import { argumentValue, flagValue } from './hints.js';

/** The flags of the root that every command accepts: all but help and version. */
function isGlobal(option: Option, root: Command): boolean {
  const help = root.createHelp();
  return help.visibleOptions(root).includes(option) && !['--help', '--version'].includes(option.long ?? '');
}

/** Describes `program` and everything below it, leaving hidden commands and flags out. */
export function describeProgram(program: Command): CompletionTree {
  const globals = program.options.filter((option) => isGlobal(option, program));
  return {
    root: describeCommand(program, [], new Set(globals)),
    globalOptions: globals.map((option) => describeOption(option, [])),
  };
}

function describeCommand(command: Command, path: string[], globals: Set<Option>): CompletionCommand {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  const names = subcommands.map((sub) => sub.name()).filter((name) => name !== 'help');
  return {
    name: command.name(),
    description: command.summary() || command.description(),
    options: help
      .visibleOptions(command)
      .filter((option) => !globals.has(option))
      .map((option) => describeOption(option, path)),
    arguments: command.registeredArguments.map((argument) => describeArgument(argument, path)),
    commands: subcommands.map((sub) =>
      sub.name() === 'help' && sub.commands.length === 0
        ? helpCommand(sub, names)
        : describeCommand(sub, [...path, sub.name()], globals),
    ),
  };
}

/** commander's implicit `help [command]`, whose argument is one of its siblings. */
function helpCommand(help: Command, siblings: string[]): CompletionCommand {
  return {
    name: 'help',
    description: help.description(),
    options: [],
    arguments: [{ name: 'command', variadic: false, value: { kind: 'choices', values: siblings } }],
    commands: [],
  };
}

function describeOption(option: Option, path: string[]): CompletionOption {
  const takesValue = option.required || option.optional;
  let value: ValueSource | undefined;
  if (takesValue) {
    value = option.argChoices
      ? { kind: 'choices', values: option.argChoices }
      : flagValue(path, option.long ?? option.short ?? '');
  }
  return { short: option.short, long: option.long, description: option.description, value };
}

function describeArgument(argument: Argument, path: string[]): CompletionArgument {
  return {
    name: argument.name(),
    variadic: argument.variadic,
    value: argument.argChoices
      ? { kind: 'choices', values: argument.argChoices }
      : argumentValue(path, argument.name()),
  };
}
