/**
 * Does the cause of a listing's error look fixed? Before a resync spends a unit of write quota,
 * svc reads what the error code names: an image of the product for `photo_required_for_channel`,
 * the category's required attributes (and those the issue names) for `missing_required_attribute`,
 * the category for `category_invalid`. A listing whose cause is unchanged would fail again. Codes
 * svc cannot check, and causes it cannot read, are `unknown`: worth sending.
 */
import type { AttributeDefinition } from '../../contract/schemas/channel-account.js';
import type { Listing, ListingIssue } from '../../contract/schemas/listing.js';
import type { Product } from '../../contract/schemas/product.js';
import { plural } from '../../words.js';
import { runChunks } from '../bulk.js';
import { fromProduct, present } from './discovery.js';
import type { ListingReads } from './reads.js';

/** What a check found: the cause fixed, unchanged, or not known to svc. */
export type CauseState = 'fixed' | 'unchanged' | 'unknown';

/** One listing's check: its state and why, in words ("the product still has no image"). */
export interface CauseCheck {
  state: CauseState;
  reason: string;
}

/** What a retry's dry run says of each listing: sent or not, and why. */
export interface RetryPlanned {
  send: boolean;
  cause: CauseState | 'not_checked';
  reason: string;
}

/** The reads a check makes (ListingReads, or a test's own). */
export type CauseReads = Pick<
  ListingReads,
  'product' | 'account' | 'schema' | 'hasSubcategories' | 'categoryOf'
>;

/** Whether the cause of `code` on `listing` looks fixed, from what svc can read now. */
export async function checkCause(reads: CauseReads, listing: Listing, code: string): Promise<CauseCheck> {
  switch (code) {
    case 'photo_required_for_channel':
      return checkPhoto(reads, listing);
    case 'missing_required_attribute':
      return checkAttributes(reads, listing, issueOf(listing, code));
    case 'category_invalid':
      return checkCategory(reads, listing);
    default:
      return { state: 'unknown', reason: `svc cannot tell whether the cause of ${code} changed` };
  }
}

/** Each listing's check (by listing id), a few at a time; reads shared between listings are made once. */
export async function checkCauses(
  reads: CauseReads,
  listings: readonly Listing[],
  code: string,
  signal?: AbortSignal,
): Promise<Map<string, CauseCheck>> {
  const checks = new Map<string, CauseCheck>();
  await runChunks(
    listings,
    async (listing) => {
      checks.set(listing.id, await checkCause(reads, listing, code));
    },
    { concurrency: 8, signal },
  );
  return checks;
}

async function checkPhoto(reads: CauseReads, listing: Listing): Promise<CauseCheck> {
  const product = await reads.product(listing.product_id);
  if (!product) return { state: 'unknown', reason: `product ${listing.product_id} could not be read` };
  const images = product.images?.length ?? 0;
  return images > 0
    ? { state: 'fixed', reason: `the product has ${images} ${plural(images, 'image')} now` }
    : { state: 'unchanged', reason: 'the product still has no image' };
}

/**
 * The attributes the issue names and, where the account offers its schema, every attribute the
 * listing's category requires: fixed when the listing, the product or every variant gives each.
 */
async function checkAttributes(
  reads: CauseReads,
  listing: Listing,
  issue: ListingIssue | undefined,
): Promise<CauseCheck> {
  const named = issue?.attribute_names ?? [];
  const schema = await schemaOf(reads, listing);
  // A name the schema knows but no longer requires is no longer wanted; names it does not know
  // (a channel's own rule: brand, barcode) still are.
  const wanted = new Set(named.filter((name) => !schema?.some((a) => a.name === name && !a.required)));
  for (const attribute of schema ?? []) if (attribute.required) wanted.add(attribute.name);
  if (wanted.size === 0) return { state: 'unknown', reason: 'the issue names no attribute svc can check' };
  const product = await reads.product(listing.product_id);
  const missing = [...wanted].filter((name) => !provided(listing, product, name));
  if (missing.length === 0)
    return {
      state: 'fixed',
      reason: `${[...wanted].join(', ')} ${plural(wanted.size, 'is', 'are')} given now`,
    };
  return { state: 'unchanged', reason: `still missing ${missing.join(', ')}` };
}

/** The schema of the listing's category, where the account offers it and the category is known. */
async function schemaOf(reads: CauseReads, listing: Listing): Promise<AttributeDefinition[] | undefined> {
  const account = await reads.account(listing.channel_account_id);
  if (!account?.discovery?.attribute_schema) return undefined;
  const category = await reads.categoryOf(listing);
  return category ? reads.schema(listing.channel_account_id, category.categoryId) : undefined;
}

/** The listing's category (its own, or its product's): fixed once it exists and has no subcategories (a leaf). */
async function checkCategory(reads: CauseReads, listing: Listing): Promise<CauseCheck> {
  const account = await reads.account(listing.channel_account_id);
  const where = account?.label ?? listing.channel_account_id;
  const category = await reads.categoryOf(listing);
  if (!category) return { state: 'unknown', reason: 'the listing names no category svc can find' };
  if (!account?.discovery?.categories)
    return { state: 'unknown', reason: `${where} offers no category discovery` };
  const { categoryId } = category;
  if (await reads.hasSubcategories(listing.channel_account_id, categoryId))
    return { state: 'unchanged', reason: `category ${categoryId} still has subcategories` };
  if (!(await reads.schema(listing.channel_account_id, categoryId)))
    return { state: 'unchanged', reason: `category ${categoryId} still does not exist on ${where}` };
  return { state: 'fixed', reason: `category ${categoryId} is a leaf now` };
}

/** The listing's issue of this code. */
function issueOf(listing: Listing, code: string): ListingIssue | undefined {
  return listing.issues?.find((issue) => issue.code === code);
}

/** Whether an attribute is given: by the listing, or by its product (discovery.ts, fromProduct). */
export function provided(listing: Listing, product: Product | undefined, name: string): boolean {
  return present(listing.attributes?.[name]) || fromProduct(product, name);
}

/**
 * The command that shows what an issue needs, where svc can name one: for an invalid attribute
 * value, `svc channels schema ACCOUNT CATEGORY` (the allowed values), read from the listing's
 * category; else the search that finds the category.
 */
export async function issueHint(
  reads: Pick<CauseReads, 'categoryOf'>,
  listing: Listing,
  issue: ListingIssue,
): Promise<string | undefined> {
  if (issue.code !== 'attribute_value_invalid') return undefined;
  const account = listing.channel_account_id;
  const category = await reads.categoryOf(listing);
  return category
    ? `Allowed values: svc channels schema ${account} ${category.categoryId}`
    : `Find the category with svc channels categories ${account}, then: svc channels schema ${account} CATEGORY_ID`;
}

/** The listing with each issue's message followed by its hint (issueHint), for people to read. */
export async function withHints(reads: Pick<CauseReads, 'categoryOf'>, listing: Listing): Promise<Listing> {
  if (!listing.issues?.length) return listing;
  const issues = await Promise.all(
    listing.issues.map(async (issue) => {
      const hint = await issueHint(reads, listing, issue);
      return hint ? { ...issue, message: [issue.message, hint].filter(Boolean).join(' ') } : issue;
    }),
  );
  return { ...listing, issues };
}
