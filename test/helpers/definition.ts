/**
 * Flag parsing of one command definition in-process: the definition's run is swapped for one
 * that keeps what it was given (gh's runF), so nothing is sent and no terminal is needed.
 */
import { Command } from 'commander';
import { addCommand, prepareToRun } from '../../src/cli/command-builder.js';
import { Context } from '../../src/cmdutil/context.js';
import type { CommandDefinition, CommandEntry } from '../../src/cmdutil/define.js';
import { memoryIO } from './memory-io.js';

/** A parser of `definition`'s command line: `parse(args)` records each run's args in `calls`. */
export function definitionParser<Args>(definition: CommandDefinition<Args>, now = Date.now) {
  const io = memoryIO();
  const ctx = new Context(io, {}, now);
  const parent = new Command('svc')
    .exitOverride()
    .configureOutput({ writeErr: (text) => io.stderr.write(text), writeOut: () => {} });
  const calls: Args[] = [];
  const recording = { ...definition, run: async (args: Args) => void calls.push(args) };
  addCommand(parent, entryOf(recording as CommandDefinition<never>), ctx).exitOverride();
  // As the program does: the definition (its flags' parsers) loads before the command's line is parsed.
  parent.hook('preSubcommand', (_parent, command) => prepareToRun(command));
  const name = definition.path.at(-1) ?? '';
  return {
    calls,
    /** What commander said on stderr. */
    errors: io.err,
    parse: (args: string[]) => parent.parseAsync([name, ...args], { from: 'user' }),
  };
}

/** The manifest's entry of a definition (as scripts/manifest.mjs writes it), loading the definition itself. */
function entryOf(definition: CommandDefinition<never>): CommandEntry {
  const { run: _run, fields, flags, ...rest } = definition;
  return {
    ...rest,
    flags: flags?.map(({ parse: _parse, ...flag }) => flag),
    fields: fields !== undefined,
    load: async () => definition,
  };
}
