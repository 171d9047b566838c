/**
 * The global flags, checked once the command is known and before it runs (so before anything
 * is sent): a flag that means nothing to the command is refused, `--fields` names only fields
 * its items have (`--fields help` lists them), and `--query` compiles.
 */
import { type Command, CommanderError } from 'commander';
import type { Context } from '../cmdutil/context.js';
import { UsageError } from '../errors.js';
import { plural } from '../words.js';
import { definitionOf, loadDefinition } from './command-builder.js';
import { type CommandScope, flagsFor, isScoped } from './command-scopes.js';

/** The command's path below the root: `orders list`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The scope of a command; one without an entry takes every global flag. */
export function scopeOf(command: Command): CommandScope | undefined {
  const definition = definitionOf(command);
  const times = definition?.flags?.some((flag) => flag.flags.includes('<time>'));
  // Its --fields list is the definition's to give: loaded by then (the command is about to run).
  const fields = definition?.fields
    ? async () => (await (await loadDefinition(command)).fields?.()) ?? []
    : undefined;
  return definition && { ...definition.takes, fields, times };
}

/** Checks the global flags against `action` (the command about to run), before it runs. */
export async function checkGlobalFlags(ctx: Context, root: Command, action: Command): Promise<void> {
  const path = commandPath(action);
  const scope = scopeOf(action);
  if (scope) refuseMeaningless(root, scope, path);
  const fields = ctx.globals.fields;
  if (fields && scope?.fields) {
    const known = await scope.fields();
    if (fields.length === 1 && fields[0] === 'help') {
      ctx.io.stdout.write(`${known.join('\n')}\n`);
      // Like --help: printed, nothing else runs, exit 0.
      throw new CommanderError(0, 'commander.helpDisplayed', '');
    }
    const { knownField } = await import('../contract/schemas/fields.js');
    const { closestValue } = await import('../cmdutil/filter-check.js');
    checkFields(fields, known, path, knownField, closestValue);
    // csv and tsv give a --fields object of known shape as its fields, one column each.
    ctx.useKnownFields(known);
  }
  if (ctx.globals.excel && ctx.io.format !== 'csv') {
    throw new UsageError(
      `--excel writes csv for spreadsheets: give it alone or with -o csv, not with ${ctx.globals.json ? '--json' : `-o ${ctx.io.format}`}`,
    );
  }
  if (ctx.globals.query !== undefined) {
    const { compileQuery } = await import('../output/query.js');
    const query = await compileQuery(ctx.globals.query);
    if (scope?.list && !scope.asAnswered && query.leadingField !== undefined) {
      // JMESPath gives null for a field of an array: the run would print null and exit 0.
      throw new UsageError(
        `--query "${query.expression}" picks a field of the whole list, which is always null: --query "[].${query.expression}" picks it from each item; a search or filter is a flag of its own (see svc ${path} --help)`,
      );
    }
    ctx.useQuery(query);
  }
}

/** A global flag given on the command line that the command has no use for: exit 2. */
function refuseMeaningless(root: Command, scope: CommandScope, path: string): void {
  const allowed = flagsFor(scope);
  for (const option of root.options) {
    const name = option.attributeName();
    if (!isScoped(name) || allowed.has(name) || root.getOptionValueSource(name) !== 'cli') continue;
    throw new UsageError(
      `${option.long} means nothing to svc ${path} (${why(name)}); see svc ${path} --help for what it takes`,
    );
  }
}

function why(flag: string): string {
  switch (flag) {
    case 'all':
    case 'limit':
      return 'it does not print a list';
    case 'fields':
      return 'what it prints has no fixed fields; --query picks from it';
    case 'yes':
      return 'it never asks for confirmation';
    case 'profile':
    case 'baseUrl':
    case 'maxRetries':
    case 'requestTimeout':
      return 'it reaches neither the service nor a profile';
    default:
      return 'it prints no data in that form';
  }
}

/** Every --fields name must be a field of the items: an unknown one exits 2 with the closest. */
export function checkFields(
  fields: readonly string[],
  known: readonly string[],
  path: string,
  isKnown: (field: string, known: readonly string[]) => boolean,
  closest: (field: string, known: readonly string[]) => string | undefined,
): void {
  const unknown = fields.filter((field) => !isKnown(field, known));
  if (unknown.length === 0) return;
  const named = unknown
    .map((field) => {
      const best = closest(
        field,
        known.filter((name) => !name.endsWith('.*')),
      );
      return best ? `"${field}" (did you mean "${best}"?)` : `"${field}"`;
    })
    .join(', ');
  throw new UsageError(
    `--fields: unknown ${plural(unknown.length, 'field')} ${named} for svc ${path}; \`svc ${path} --fields help\` lists them`,
  );
}
