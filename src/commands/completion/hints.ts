/**
 * What flag values and arguments complete to, where commander's own `.choices()` does not
 * say: statuses by noun, event types, channel kinds, files and profile names. Names come
 * from the pinned contract, so a new status shows up in the scripts on the next
 * `npm run completions`.
 */
import { EVENT_TYPES, LISTING_STATUSES, OPERATION_STATUSES, ORDER_STATUSES } from '../../api/contract.js';
import { CHANNEL_KINDS } from '../../api/schemas/channel-account.js';
import type { ValueSource } from '../../core/completion/model.js';
import { UPSERT_FORMATS } from '../../core/products/upsert-file.js';

/** `--status` of each noun that filters by one. */
const STATUSES: Record<string, readonly string[]> = {
  listings: LISTING_STATUSES,
  orders: ORDER_STATUSES,
  operations: OPERATION_STATUSES,
};

/** Flags whose value is a path on disk, under any command. */
const FILE_FLAGS = new Set(['--file', '--report', '--payload', '--input', '--secret-file']);
/** Arguments whose value is a path on disk, by their name in the usage line (`svc api` has a URL path). */
const FILE_ARGUMENTS = new Set(['file', 'path', 'image']);

/** What the value of `flag` (its long name) under the command at `path` completes to. */
export function flagValue(path: readonly string[], flag: string): ValueSource {
  const noun = path[0] ?? '';
  if (flag === '--profile') return { kind: 'profiles' };
  if (flag === '--status') {
    const statuses = STATUSES[noun];
    // Fails the completion test, so that a new --status is given its values here.
    if (!statuses)
      throw new Error(`svc ${path.join(' ')} --status: no status list for "${noun}" in hints.ts`);
    return { kind: 'choices', values: statuses };
  }
  if (flag === '--type') return { kind: 'choices', values: EVENT_TYPES };
  if (flag === '--events') return { kind: 'choices', values: EVENT_TYPES, list: true };
  if (flag === '--channel') return { kind: 'choices', values: CHANNEL_KINDS };
  if (flag === '--format' && path.join(' ') === 'products upsert')
    return { kind: 'choices', values: UPSERT_FORMATS };
  if (FILE_FLAGS.has(flag)) return { kind: 'file' };
  return { kind: 'none' };
}

/** What positional argument `name` of the command at `path` completes to. */
export function argumentValue(path: readonly string[], name: string): ValueSource {
  if (path[0] === 'profiles' && name === 'name') return { kind: 'profiles' };
  if (FILE_ARGUMENTS.has(name) && path[0] !== 'api') return { kind: 'file' };
  return { kind: 'none' };
}
