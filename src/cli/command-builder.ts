/**
 * Turns command definitions (src/cmdutil/define.ts) into commander commands: usage, flags,
 * help text, the id checks of arguments, and the call of `run` with the parsed arguments.
 */
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from '../cmdutil/context.js';
import {
  type ArgSpec,
  argKey,
  type CommandDefinition,
  type FlagSpec,
  type NounDefinition,
} from '../cmdutil/define.js';
import type { ValueSource } from '../core/command-tree.js';
import { UsageError } from '../errors.js';

/** What a flag's value completes to, where its definition says (FlagSpec.completes). */
const completions = new WeakMap<Option, ValueSource>();

/** What the value of a flag built from a definition completes to, when its definition says. */
export function completionOf(option: Option): ValueSource | undefined {
  return completions.get(option);
}

/** The definition behind each command commander built from one (for scopes and help). */
const definitions = new WeakMap<Command, CommandDefinition<never>>();

/** The definition a command was built from; undefined for nouns and the root. */
export function definitionOf(command: Command): CommandDefinition<never> | undefined {
  return definitions.get(command);
}

/** Adds a noun (a word that groups commands) below `parent`. */
export function addNoun(parent: Command, noun: NounDefinition): Command {
  return parent.command(noun.path.at(-1) ?? '').description(noun.description);
}

/** Adds the command `definition` describes below `parent`; its action runs `definition.run` with `ctx`. */
export function addCommand<Args>(
  parent: Command,
  definition: CommandDefinition<Args>,
  ctx: Context,
): Command {
  const command = parent
    .command(definition.path.at(-1) ?? '', { hidden: definition.hidden })
    .description(definition.description);
  if (definition.summary) command.summary(definition.summary);
  // kubectl's and gh's word for it.
  if (definition.path.at(-1) === 'list') command.alias('ls');
  for (const arg of definition.args ?? []) command.addArgument(argumentOf(arg));
  for (const flag of definition.flags ?? []) command.addOption(optionOf(flag, ctx, command));
  const help = helpAfter(definition as CommandDefinition<never>);
  if (help) command.addHelpText('after', help);
  command.action(async (...values: unknown[]) => {
    const args = argsOf(definition as CommandDefinition<never>, values);
    await definition.run(args as Args, ctx);
  });
  definitions.set(command, definition as CommandDefinition<never>);
  return command;
}

function argumentOf(spec: ArgSpec): Argument {
  const name = spec.variadic ? `${spec.name}...` : spec.name;
  const argument = new Argument(spec.optional ? `[${name}]` : `<${name}>`, spec.description);
  if (spec.choices) argument.choices(spec.choices);
  return argument;
}

function optionOf(spec: FlagSpec, ctx: Context, command: Command): Option {
  const option = new Option(spec.flags, spec.description);
  const { parse } = spec;
  if (parse) {
    // The root reads its own options (--time among them) wherever they stand on the line,
    // before the command's are parsed: its value is known here.
    const timeZone = () => (rootOf(command).opts().time === 'utc' ? 'utc' : 'local');
    option.argParser((value: string, previous: unknown) => {
      try {
        return parse(value, previous, { now: ctx.now, timeZone });
      } catch (error) {
        if (error instanceof InvalidArgumentError) throw error;
        throw new InvalidArgumentError((error as Error).message);
      }
    });
  }
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory();
  if (spec.choices) option.choices(spec.choices);
  if (spec.hidden) option.hideHelp();
  if (spec.completes) completions.set(option, spec.completes);
  return option;
}

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** commander hands the action each argument, then the options: one object keyed by name. */
function argsOf(definition: CommandDefinition<never>, values: unknown[]): Record<string, unknown> {
  const specs = definition.args ?? [];
  const options = (values[specs.length] ?? {}) as Record<string, unknown>;
  const args: Record<string, unknown> = { ...options };
  specs.forEach((spec, index) => {
    const value = values[index];
    if (spec.id && value !== undefined) {
      for (const id of Array.isArray(value) ? value : [value]) checkId(String(id), spec.id);
    }
    args[argKey(spec.name)] = value;
  });
  return args;
}

/** An id without its kind's prefix is refused before anything is sent (exit 2). */
function checkId(id: string, kind: NonNullable<ArgSpec['id']>): void {
  if (new RegExp(`^${kind.prefix}\\S+$`).test(id)) return;
  throw new UsageError(
    `"${id}" is not ${article(kind.noun)} ${kind.noun} id (they look like ${kind.prefix}…); find one with \`${kind.list}\``,
  );
}

function article(noun: string): string {
  return /^[aeiou]/.test(noun) ? 'an' : 'a';
}

/** What --help prints after the flags: the notes, then the examples. */
function helpAfter(definition: CommandDefinition<never>): string {
  const lines: string[] = [];
  if (definition.notes?.length) lines.push('', ...definition.notes);
  if (definition.examples.length > 0) {
    lines.push('', definition.examples.length === 1 ? 'Example:' : 'Examples:');
    lines.push(...definition.examples.map((example) => `  ${example}`));
  }
  return lines.join('\n');
}
