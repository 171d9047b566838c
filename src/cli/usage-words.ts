/**
 * Usage errors worded for people who come from `gh` and `kubectl` (see the guide's Global
 * options): `--json FIELDS` points at `--fields FIELDS --json`, `view` and `show` at `get`, and
 * commander's own sentences lose the period that would stand before svc's "; see …".
 */
import type { CommanderError } from 'commander';
import { UsageError } from '../errors.js';

/** The words gh and kubectl show one item with; svc's verb is `get`. */
const SHOW_VERBS = new Set(['view', 'show', 'describe']);

/**
 * `--json id,status` is gh's field list; svc's --json takes none, and the list would be read as
 * an argument. Refused before parsing, with the flags that do it.
 */
export function refuseJsonFieldList(args: readonly string[]): void {
  const fields = jsonFieldList(args, (word) => word.includes(','));
  if (fields !== undefined) throw new UsageError(jsonFieldListMessage(fields));
}

/** commander's message of `error`, as svc says it: one of the habits above named, no stray period. */
export function usageMessage(error: CommanderError, args: readonly string[]): string {
  const message = error.message.replace(/^error:\s*/, '');
  if (error.code === 'commander.excessArguments') {
    const fields = jsonFieldList(args, () => true);
    if (fields !== undefined) return jsonFieldListMessage(fields);
  }
  if (error.code === 'commander.unknownCommand') {
    const word = /unknown command '([^']*)'/.exec(message)?.[1];
    if (word && SHOW_VERBS.has(word))
      return `unknown command '${word}': svc shows one item with get (e.g. svc orders get ID)`;
  }
  return message.replace(/[.\s]+$/, '');
}

/** The word after `--json` when `looksLikeList` says it is a field list, not the command's argument. */
function jsonFieldList(
  args: readonly string[],
  looksLikeList: (word: string) => boolean,
): string | undefined {
  for (const [index, arg] of args.entries()) {
    if (arg === '--') return undefined;
    if (arg.startsWith('--json=')) return arg.slice('--json='.length);
    if (arg !== '--json') continue;
    const next = args[index + 1];
    if (next !== undefined && !next.startsWith('-') && /^[\w.]+(,[\w.]+)*$/.test(next) && looksLikeList(next))
      return next;
  }
  return undefined;
}

function jsonFieldListMessage(fields: string): string {
  return `svc's --json takes no field list: use --fields ${fields} --json`;
}
