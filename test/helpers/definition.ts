/**
 * Flag parsing of one command definition in-process: the definition's run is swapped for one
 * that keeps what it was given (gh's runF), so nothing is sent and no terminal is needed.
 */
import { Command } from 'commander';
import { addCommand } from '../../src/cli/command-builder.js';
import { Context } from '../../src/cmdutil/context.js';
import type { CommandDefinition } from '../../src/cmdutil/define.js';
import { memoryIO } from './memory-io.js';

/** A parser of `definition`'s command line: `parse(args)` records each run's args in `calls`. */
export function definitionParser<Args>(definition: CommandDefinition<Args>, now = Date.now) {
  const io = memoryIO();
  const ctx = new Context(io, {}, now);
  const parent = new Command('svc')
    .exitOverride()
    .configureOutput({ writeErr: (text) => io.stderr.write(text), writeOut: () => {} });
  const calls: Args[] = [];
  addCommand(parent, { ...definition, run: async (args: Args) => void calls.push(args) }, ctx).exitOverride();
  const name = definition.path.at(-1) ?? '';
  return {
    calls,
    /** What commander said on stderr. */
    errors: io.err,
    parse: (args: string[]) => parent.parseAsync([name, ...args], { from: 'user' }),
  };
}
