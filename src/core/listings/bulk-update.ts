/**
 * `listings update`: the change `--override` and `--attribute` make, and for many listings at
 * once (`--error-code`), the checks before anything is sent: the attributes against the schema
 * of each distinct category the listings are judged under, and which listings carry the change
 * already (a run again after a stop sends them nothing).
 */
import type { Listing, ListingUpdate } from '../../contract/schemas/listing.js';
import { UsageError } from '../../errors.js';
import { plural } from '../../words.js';
import { runChunks } from '../bulk.js';
import { parseAssignments, unknownOverrides } from './assignments.js';
import { givenProblems, typeAsSchema } from './discovery.js';
import type { ListingReads } from './reads.js';

/** The change of `--override` and `--attribute`, and the override names the API does not document. */
export function updateBody(
  overrides: readonly string[],
  attributes: readonly string[],
): { body: ListingUpdate; unknown: string[] } {
  const body: ListingUpdate = {};
  if (overrides.length > 0)
    body.overrides = parseAssignments('--override', overrides) as ListingUpdate['overrides'];
  if (attributes.length > 0) body.attributes = parseAssignments('--attribute', attributes);
  return { body, unknown: unknownOverrides(body.overrides ?? {}) };
}

/** Whether the listing holds every value of the change already (a `null` attribute: holds none). */
export function carriesUpdate(listing: Listing, body: ListingUpdate): boolean {
  const holds = (current: Record<string, unknown> | null | undefined, wanted: Record<string, unknown>) =>
    Object.entries(wanted).every(([name, value]) =>
      value === null
        ? current?.[name] === undefined || current?.[name] === null
        : JSON.stringify(current?.[name]) === JSON.stringify(value),
    );
  return (
    holds(listing.attributes, body.attributes ?? {}) &&
    holds(listing.overrides as Record<string, unknown> | null | undefined, body.overrides ?? {})
  );
}

/** What the attribute check could not check, for notes on stderr. */
export interface BulkAttributeCheck {
  notes: string[];
}

/**
 * The attributes of the change against the schema of every distinct category the listings are
 * judged under (the change's `category_id`, the listing's, else its product's), on accounts that
 * offer attribute schemas. Numbers given for text attributes become text (in `body`). A name no
 * category knows, and a value a category refuses, stop the run before anything is sent
 * (UsageError, exit 2), each named with its category; a name only some categories know is
 * noted for the others. Required attributes are left to the channel (the change may bring only
 * some of them).
 */
export async function checkBulkAttributes(
  reads: ListingReads,
  listings: readonly Listing[],
  body: ListingUpdate,
  signal?: AbortSignal,
): Promise<BulkAttributeCheck> {
  const given = body.attributes;
  if (!given) return { notes: [] };
  const groups = new Map<string, { accountId: string; label: string; categoryId: string; count: number }>();
  const unchecked = new Map<string, number>();
  const skip = (why: string): void => {
    unchecked.set(why, (unchecked.get(why) ?? 0) + 1);
  };
  await runChunks(
    listings,
    async (listing) => {
      const account = await reads.account(listing.channel_account_id);
      const label = account?.label ?? listing.channel_account_id;
      if (!account?.discovery?.attribute_schema) return skip(`${label} offers no attribute schema`);
      const categoryId =
        body.overrides?.category_id ?? (await reads.categoryOf(listing))?.categoryId ?? undefined;
      if (!categoryId) return skip('no category of their own or of their product was found');
      const key = `${listing.channel_account_id}\u0000${categoryId}`;
      const group = groups.get(key) ?? { accountId: listing.channel_account_id, label, categoryId, count: 0 };
      group.count++;
      groups.set(key, group);
    },
    { concurrency: 8, signal },
  );
  const problems: string[] = [];
  // A name no category knows is a typo; one only some know is for those (the rest are told).
  const knownSomewhere = new Set<string>();
  const notFor: string[] = [];
  for (const group of groups.values()) {
    const schema = await reads.schema(group.accountId, group.categoryId);
    const where = `category ${group.categoryId} on ${group.label} (${group.count} ${plural(group.count, 'listing')})`;
    if (!schema) {
      problems.push(
        `${where}: no such category; find one with \`svc channels categories ${group.accountId}\``,
      );
      continue;
    }
    typeAsSchema(schema, given);
    const known = Object.keys(given).filter((name) => schema.some((attribute) => attribute.name === name));
    for (const name of known) knownSomewhere.add(name);
    const unknown = Object.keys(given).filter((name) => !known.includes(name));
    if (unknown.length > 0) notFor.push(`${unknown.join(', ')} not in ${where}`);
    const picked = Object.fromEntries(known.map((name) => [name, given[name]]));
    for (const problem of givenProblems(schema, picked)) problems.push(`${where}: ${problem}`);
  }
  if (groups.size > 0) {
    for (const name of Object.keys(given))
      if (!knownSomewhere.has(name))
        problems.push(`unknown attribute ${name}: no category of these listings takes it`);
  }
  if (problems.length > 0) {
    throw new UsageError(
      'the attributes do not fit the categories of the listings; fix them and run again (nothing was sent)',
      problems,
    );
  }
  const notes = [
    ...[...unchecked].map(
      ([why, count]) => `${count} ${plural(count, 'listing')}: attributes not checked (${why})`,
    ),
    ...notFor.map((line) => `${line}; sent as given`),
  ];
  return { notes };
}
