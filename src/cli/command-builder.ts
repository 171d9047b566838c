/**
 * Turns command definitions (src/cmdutil/define.ts) into commander commands: usage, flags,
 * help text, the id checks of arguments, and the call of `run` with the parsed arguments.
 * Each command is built from its manifest entry (src/cli/manifest.ts); the one file that
 * defines it is loaded only for the command a run names (`prepareToRun`, before its flags are
 * parsed, since their parsers live there), so help and completion load none.
 */
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from '../cmdutil/context.js';
import {
  type ArgSpec,
  argKey,
  type CommandDefinition,
  type CommandEntry,
  type FlagMetadata,
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

/** The manifest entry behind each command commander built from one (for scopes and help). */
const entries = new WeakMap<Command, CommandEntry>();

/** How to load each command's definition, once (with its flags' parsers set up). */
const loaders = new WeakMap<Command, () => Promise<CommandDefinition<never>>>();

/** The manifest entry a command was built from; undefined for nouns and the root. */
export function definitionOf(command: Command): CommandEntry | undefined {
  return entries.get(command);
}

/** The definition of a command built from the manifest: its one file, loaded on first ask. */
export function loadDefinition(command: Command): Promise<CommandDefinition<never>> {
  const load = loaders.get(command);
  return load ? load() : Promise.reject(new Error(`svc ${command.name()} has no definition`));
}

/**
 * Loads the definition of `command`, about to parse its command line (commander's
 * preSubcommand hook): its flags' parsers come with it. Nouns load nothing.
 */
export async function prepareToRun(command: Command): Promise<void> {
  if (loaders.has(command)) await loadDefinition(command);
}

/** Adds a noun (a word that groups commands) below `parent`. */
export function addNoun(parent: Command, noun: NounDefinition): Command {
  return parent.command(noun.path.at(-1) ?? '').description(noun.description);
}

/** Adds the command `definition` describes below `parent`; its action runs `definition.run` with `ctx`. */
export function addCommand(parent: Command, definition: CommandEntry, ctx: Context): Command {
  const command = parent
    .command(definition.path.at(-1) ?? '', { hidden: definition.hidden })
    .description(definition.description);
  if (definition.summary) command.summary(definition.summary);
  // kubectl's and gh's word for it.
  if (definition.path.at(-1) === 'list') command.alias('ls');
  for (const arg of definition.args ?? []) command.addArgument(argumentOf(arg));
  for (const flag of definition.flags ?? []) command.addOption(optionOf(flag));
  const help = helpAfter(definition);
  if (help) command.addHelpText('after', help);
  command.action(async (...values: unknown[]) => {
    const args = argsOf(definition, values);
    await (await loadDefinition(command)).run(args as never, ctx);
  });
  entries.set(command, definition);
  let loading: Promise<CommandDefinition<never>> | undefined;
  loaders.set(command, () => {
    loading ??= definition.load().then((found) => {
      for (const flag of found.flags ?? []) {
        const option = command.options.find((candidate) => candidate.flags === flag.flags);
        if (option && flag.parse) parseWith(option, flag.parse, ctx, command);
      }
      return found;
    });
    return loading;
  });
  return command;
}

function argumentOf(spec: ArgSpec): Argument {
  const name = spec.variadic ? `${spec.name}...` : spec.name;
  const argument = new Argument(spec.optional ? `[${name}]` : `<${name}>`, spec.description);
  if (spec.choices) argument.choices(spec.choices);
  return argument;
}

function optionOf(spec: FlagMetadata): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory();
  if (spec.choices) option.choices(spec.choices);
  if (spec.hidden) option.hideHelp();
  if (spec.completes) completions.set(option, spec.completes);
  return option;
}

/** Sets a flag's parser from its definition: a value it refuses is a usage error (exit 2). */
function parseWith(
  option: Option,
  parse: NonNullable<FlagSpec['parse']>,
  ctx: Context,
  command: Command,
): void {
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

function rootOf(command: Command): Command {
  let root = command;
  while (root.parent) root = root.parent;
  return root;
}

/** commander hands the action each argument, then the options: one object keyed by name. */
function argsOf(definition: CommandEntry, values: unknown[]): Record<string, unknown> {
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
function helpAfter(definition: CommandEntry): string {
  const lines: string[] = [];
  if (definition.notes?.length) lines.push('', ...definition.notes);
  if (definition.examples.length > 0) {
    lines.push('', definition.examples.length === 1 ? 'Example:' : 'Examples:');
    lines.push(...definition.examples.map((example) => `  ${example}`));
  }
  return lines.join('\n');
}
