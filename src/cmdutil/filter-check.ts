/**
 * Filter values checked before a list is asked for: a value the service does not know would
 * answer "nothing found" and exit 0, which in CI is an empty file and a green job. Values the
 * reference enumerates are checked against src/contract/filter-values.ts; channel kinds and
 * account ids against the store's own channel accounts (one read); an issue code svc does not
 * know, against the listings (a read of one). An empty id would be no filter at all, so it is
 * refused. `svc api` still sends anything.
 */

import { ENDPOINTS } from '../contract/endpoints.js';
import {
  EVENT_TYPE_FILTER,
  type FilterValues,
  ISSUE_CODE_FILTER,
  STATUS_FILTERS,
} from '../contract/filter-values.js';
import type { OperationId } from '../contract/operations.js';
import { UsageError } from '../errors.js';
import type { Deps } from './deps.js';

/** The list (an operation of the endpoint table) and query parameter a filter goes to, so a refusal can name the `svc api` call that sends any value. */
export interface QueryParam {
  operation: OperationId;
  param: string;
}

/** `value` when `filter` accepts it; otherwise UsageError (exit 2) with the closest valid value. */
export function checkFilterValue(
  flag: string,
  value: string,
  filter: FilterValues,
  sendAnyway?: QueryParam,
): string {
  if (filter.values.includes(value)) return value;
  throw unknownValue(flag, value, filter.what, filter.values, sendAnyway);
}

/**
 * The values of a filter the service takes one value of, given comma-separated (`--status
 * error,delisted`): each once, in the order given; undefined stays undefined. svc crawls each
 * value and merges the lists (src/client/merged-list.ts).
 */
function splitValues(flag: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((value) => value.trim());
  if (values.some((value) => value === '')) {
    throw new UsageError(
      `${flag} "${raw}" holds an empty value; give one value or several separated by commas, e.g. ${flag} a,b`,
    );
  }
  return [...new Set(values)];
}

/** `--status a,b` of a noun's list: each value checked as one value is; undefined stays undefined. */
export function checkStatuses(
  noun: string,
  raw: string | undefined,
  sendAnyway: QueryParam,
): string[] | undefined {
  return splitValues('--status', raw)?.map((value) =>
    checkFilterValue('--status', value, STATUS_FILTERS[noun], sendAnyway),
  );
}

/** `--type` of events, checked; undefined stays undefined. */
export function checkEventType(value: string | undefined, sendAnyway?: QueryParam): string | undefined {
  return value === undefined ? undefined : checkFilterValue('--type', value, EVENT_TYPE_FILTER, sendAnyway);
}

/** The entries of `--events a,b`, each an event type or `*` (every type). */
export function checkEventTypes(types: string[]): string[] {
  for (const type of types) if (type !== '*') checkFilterValue('--events', type, EVENT_TYPE_FILTER);
  return types;
}

/**
 * An id or code filter: a blank value is refused, since the service would take it as no
 * filter at all and answer everything (a script's unset variable); undefined stays undefined.
 */
export function checkNotBlank(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || value.trim() !== '') return value;
  throw new UsageError(
    `${flag} needs a value: an empty one would match everything (is a variable in the script unset?)`,
  );
}

/**
 * `--channel-account ID`, checked against the account list (ids are never constructed); with
 * `route`, the refusal names the `svc api` call that sends it anyway (an account gone since).
 */
export async function checkChannelAccount(
  ctx: Pick<Deps, 'client'>,
  id: string | undefined,
  sendAnyway?: QueryParam,
): Promise<string | undefined> {
  if (checkNotBlank('--channel-account', id) === undefined) return undefined;
  const { requireAccounts } = await import('../core/listings/discovery.js');
  try {
    await requireAccounts(await ctx.client(), [id as string]);
  } catch (error) {
    if (sendAnyway && error instanceof UsageError)
      error.message += `; ${sendAnyProse(sendAnyway, id as string)}`;
    throw error;
  }
  return id;
}

/**
 * `--error-code CODE`: a code svc knows passes; the service names new ones, so another code
 * passes when some listing carries it (a read of one item); else it is a typo (exit 2).
 */
export async function checkErrorCode(
  ctx: Pick<Deps, 'client' | 'signal'>,
  code: string | undefined,
): Promise<string | undefined> {
  if (checkNotBlank('--error-code', code) === undefined) return undefined;
  const value = code as string;
  if (ISSUE_CODE_FILTER.values.includes(value)) return value;
  const { listListings } = await import('../client/resources/listings.js');
  for await (const _listing of listListings(await ctx.client(), { error_code: value }, 1, ctx.signal))
    return value;
  const what = `${ISSUE_CODE_FILTER.what}, and no listing carries it`;
  const sendAnyway: QueryParam = { operation: 'listListings', param: 'error_code' };
  throw unknownValue('--error-code', value, what, ISSUE_CODE_FILTER.values, sendAnyway, 'known');
}

/**
 * `--channel KIND`, checked against the kinds of the store's channel accounts (the API reference
 * does not list kinds, and a kind with no account here could only match nothing).
 */
export async function checkChannelKind(
  ctx: Pick<Deps, 'client'>,
  kind: string | undefined,
  sendAnyway: QueryParam,
): Promise<string | undefined> {
  if (kind === undefined) return undefined;
  checkKind(kind, await storeKinds(ctx), sendAnyway);
  return kind;
}

/** `--channel a,b`: each kind checked as one is (one read of the accounts); undefined stays undefined. */
export async function checkChannelKinds(
  ctx: Pick<Deps, 'client'>,
  raw: string | undefined,
  sendAnyway: QueryParam,
): Promise<string[] | undefined> {
  const kinds = splitValues('--channel', raw);
  if (kinds === undefined) return undefined;
  const known = await storeKinds(ctx);
  for (const kind of kinds) checkKind(kind, known, sendAnyway);
  return kinds;
}

/** The kinds of the store's channel accounts, sorted. */
async function storeKinds(ctx: Pick<Deps, 'client'>): Promise<string[]> {
  const { listChannelAccounts } = await import('../client/resources/channels.js');
  const accounts = await listChannelAccounts(await ctx.client());
  return [...new Set(accounts.map((account) => account.channel))].sort();
}

function checkKind(kind: string, kinds: readonly string[], sendAnyway: QueryParam): void {
  if (kinds.includes(kind)) return;
  if (kinds.length === 0) {
    throw new UsageError(
      `--channel "${kind}": this store has no channel accounts, so nothing can match it (svc channels list)`,
    );
  }
  throw unknownValue('--channel', kind, 'the kind of any channel account of this store', kinds, sendAnyway);
}

/** The `svc api` call that sends any value of the filter, for the refusal to name. */
function sendAnyProse({ operation, param }: QueryParam, value: string): string {
  const { method, path } = ENDPOINTS[operation];
  return `\`svc api ${method} ${path} -f ${param}=${shellWord(value)}\` sends any value`;
}

function unknownValue(
  flag: string,
  value: string,
  what: string,
  values: readonly string[],
  sendAnyway: QueryParam | undefined,
  listed = 'valid',
): UsageError {
  const best = closestValue(value, values);
  const guess = best ? `; did you mean "${best}"?` : '';
  const anyway = sendAnyway ? `; ${sendAnyProse(sendAnyway, value)}` : '';
  return new UsageError(
    `${flag} "${value}" is not ${what}${guess} (${listed}: ${values.join(', ')})${anyway}`,
  );
}

/**
 * The valid value a person most likely meant: the same once case, `-` and spaces are
 * set aside, else the nearest by edit distance when it is near enough to be a typo, else
 * the only one whose start is that near (a long value typed short).
 */
export function closestValue(value: string, values: readonly string[]): string | undefined {
  const normal = (text: string) => text.toLowerCase().replace(/[-\s]+/g, '_');
  const same = values.find((candidate) => normal(candidate) === normal(value));
  if (same) return same;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of values) {
    const distance = editDistance(normal(value), normal(candidate));
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  const nearEnough = Math.max(1, Math.min(3, Math.floor(value.length / 3)));
  if (bestDistance <= nearEnough) return best;
  // A long value typed short (`photo_requird` for photo_required_for_channel): the one whose
  // start is near, when the value is long enough to tell.
  if (value.length < 4) return undefined;
  const starts = values.filter(
    (candidate) => editDistance(normal(value), normal(candidate).slice(0, value.length)) <= nearEnough,
  );
  return starts.length === 1 ? starts[0] : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** A value as one shell word: bare when it is plain, else in single quotes. */
function shellWord(value: string): string {
  return /^[\w.:@%+,/-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}
