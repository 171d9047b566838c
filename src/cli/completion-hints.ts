/**
 * What flag values and arguments complete to, where commander's own `.choices()` does not
 * say: statuses by noun, event types, channel kinds, files and profile names. Names come
 * from src/contract/filter-values.ts (the values the CLI also checks), so a new status shows up in the scripts on the next
 * `npm run completions`.
 */
import { EVENT_TYPE_FILTER, STATUS_FILTERS } from '../contract/filter-values.js';
import { CHANNEL_KINDS } from '../contract/schemas/channel-account.js';
import type { ValueSource } from '../core/command-tree.js';
import { ENCODINGS } from '../core/csv/text.js';

/** Flags whose value is a path on disk, under any command. */
const FILE_FLAGS = new Set(['--file', '--report', '--payload', '--input', '--secret-file']);
/** Arguments whose value is a path on disk, by their name in the usage line (`svc api` has a URL path). */
const FILE_ARGUMENTS = new Set(['file', 'path', 'image']);

/** What the value of `flag` (its long name) under the command at `path` completes to. */
export function flagValue(path: readonly string[], flag: string): ValueSource {
  const noun = path[0] ?? '';
  if (flag === '--profile') return { kind: 'profiles' };
  if (flag === '--status') {
    const statuses = STATUS_FILTERS[noun];
    // Fails the completion test, so that a new --status is given its values in filter-values.ts.
    if (!statuses)
      throw new Error(`svc ${path.join(' ')} --status: no status list for "${noun}" in filter-values.ts`);
    return { kind: 'choices', values: statuses.values };
  }
  if (flag === '--type') return { kind: 'choices', values: EVENT_TYPE_FILTER.values };
  if (flag === '--events') return { kind: 'choices', values: EVENT_TYPE_FILTER.values, list: true };
  if (flag === '--channel') return { kind: 'choices', values: CHANNEL_KINDS };
  if (flag === '--encoding') return { kind: 'choices', values: ENCODINGS };
  if (FILE_FLAGS.has(flag)) return { kind: 'file' };
  return { kind: 'none' };
}

/** What positional argument `name` of the command at `path` completes to. */
export function argumentValue(path: readonly string[], name: string): ValueSource {
  if (path[0] === 'profiles' && name === 'name') return { kind: 'profiles' };
  if (FILE_ARGUMENTS.has(name) && path[0] !== 'api') return { kind: 'file' };
  return { kind: 'none' };
}
