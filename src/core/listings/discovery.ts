/**
 * Checks made before a publish or an update is sent: the channel account is one of the
 * account list (ids are never constructed), and with `--attribute`, the attributes fit the
 * schema of the listing's category when the account offers attribute-schema discovery.
 */
import type { ApiClient } from '../../client/client.js';
import { getAttributeSchema, listCategories, listChannelAccounts } from '../../client/resources/channels.js';
import { getProduct } from '../../client/resources/products.js';
import type { AttributeDefinition, ChannelAccountSummary } from '../../contract/schemas/channel-account.js';
import type { Product } from '../../contract/schemas/product.js';
import { ApiError, UsageError } from '../../errors.js';
import { plural } from '../../words.js';

/** The accounts of the list with these ids; UsageError (exit 2) naming any id not in it. */
export async function requireAccounts(
  client: ApiClient,
  ids: readonly string[],
): Promise<Map<string, ChannelAccountSummary>> {
  const accounts = await listChannelAccounts(client);
  const byId = new Map(accounts.map((account) => [account.id, account]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) {
    const known = accounts.map((account) => `${account.id} (${account.label ?? account.channel})`);
    throw new UsageError(
      `channel ${plural(unknown.length, 'account')} ${unknown.join(', ')} ${plural(unknown.length, 'is', 'are')} not in the account list; use an id from \`svc channels list\`; nothing was sent`,
      [`known accounts: ${known.join(', ') || 'none'}`],
    );
  }
  return byId;
}

/** What an attribute check found out. */
export interface AttributeCheck {
  checked: boolean;
  categoryId?: string;
  /** Why the attributes could not be checked, for a note on stderr. */
  note?: string;
}

/** What to check: the attributes given, those the listing already has, and where its category comes from. */
export interface AttributeCheckInput {
  account: ChannelAccountSummary;
  productId: string;
  /** `--override category_id=…` or the listing's own; else the product's category is looked up. */
  categoryId?: string;
  attributes: Record<string, unknown>;
  /** Attributes the listing already carries (an update merges into them). */
  existing?: Record<string, unknown>;
}

/**
 * Names, required attributes and value types against the category's schema (numbers given for
 * text attributes become text, in place); UsageError
 * (exit 2, nothing sent) listing every problem. An account without schema discovery, or a
 * product category the channel has no match for, is not checked (the note says why).
 */
export async function checkAttributes(
  client: ApiClient,
  input: AttributeCheckInput,
): Promise<AttributeCheck> {
  const { account } = input;
  const label = account.label ?? account.id;
  if (!account.discovery?.attribute_schema) {
    return { checked: false, note: `${label} offers no attribute schema; attributes were not checked` };
  }
  let product: Product | undefined;
  let categoryId = input.categoryId;
  if (categoryId === undefined) {
    product = await getProduct(client, input.productId);
    const path = typeof product.category === 'string' ? product.category.trim() : '';
    if (!path)
      return {
        checked: false,
        note: `product ${input.productId} has no category; attributes were not checked`,
      };
    categoryId = await categoryByPath(client, account.id, path);
    if (!categoryId) {
      return {
        checked: false,
        note: `${label} has no category "${path}"; attributes were not checked (set --override category_id=…)`,
      };
    }
  }
  let attributes: AttributeDefinition[];
  try {
    attributes = (await getAttributeSchema(client, account.id, categoryId)).attributes;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new UsageError(
        `category ${categoryId} does not exist on ${account.id}; find one with \`svc channels categories ${account.id} --search …\`; nothing was sent`,
      );
    }
    throw error;
  }
  product ??= await getProduct(client, input.productId);
  typeAsSchema(attributes, input.attributes);
  const problems = attributeProblems(
    attributes,
    input.attributes,
    { ...input.existing, ...input.attributes },
    product,
  );
  if (problems.length > 0) {
    throw new UsageError(
      `the attributes do not fit category ${categoryId} on ${account.id} (${label}); fix them and run again (nothing was sent)`,
      problems,
    );
  }
  return { checked: true, categoryId };
}

/** Every mismatch between the given attributes and a schema, one line each. */
function attributeProblems(
  schema: readonly AttributeDefinition[],
  given: Record<string, unknown>,
  effective: Record<string, unknown>,
  product?: Product,
): string[] {
  const problems = givenProblems(schema, given);
  const missing = schema.filter(
    (attribute) =>
      attribute.required && !present(effective[attribute.name]) && !fromProduct(product, attribute.name),
  );
  if (missing.length > 0) {
    const list = missing.map((attribute) => attribute.name).join(', ');
    problems.push(
      `missing required ${plural(missing.length, 'attribute')} ${list}; add --attribute ${missing[0].name}=…`,
    );
  }
  return problems;
}

/** A number or boolean typed for a text attribute (size 42, a barcode) is meant as its text: made so, in place. */
export function typeAsSchema(
  schema: readonly AttributeDefinition[],
  attributes: Record<string, unknown>,
): void {
  for (const attribute of schema) {
    const value = attributes[attribute.name];
    const textual = attribute.type === 'string' || attribute.type === 'enum';
    if (textual && (typeof value === 'number' || typeof value === 'boolean'))
      attributes[attribute.name] = String(value);
  }
}

/** The given attributes against a schema: names it does not know, values it does not take; one line each. */
export function givenProblems(
  schema: readonly AttributeDefinition[],
  given: Record<string, unknown>,
): string[] {
  const byName = new Map(schema.map((attribute) => [attribute.name, attribute]));
  const problems: string[] = [];
  const names = schema
    .map((attribute) => `${attribute.name}${attribute.required ? ' (required)' : ''}`)
    .join(', ');
  for (const name of Object.keys(given)) {
    const attribute = byName.get(name);
    if (!attribute) {
      problems.push(`unknown attribute ${name}; this category takes ${names || 'no attributes'}`);
      continue;
    }
    const problem = valueProblem(attribute, given[name]);
    if (problem) problems.push(problem);
  }
  return problems;
}

function valueProblem(attribute: AttributeDefinition, value: unknown): string | undefined {
  if (value === null) return undefined;
  if (attribute.type === 'number' && typeof value !== 'number')
    return `${attribute.name} takes a number, got ${JSON.stringify(value)}`;
  if (attribute.type === 'boolean' && typeof value !== 'boolean')
    return `${attribute.name} takes true or false, got ${JSON.stringify(value)}`;
  if (attribute.values && !attribute.values.includes(String(value))) {
    return `${attribute.name} takes one of ${attribute.values.join(', ')}, got ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** A value that gives an attribute: not missing, null or blank. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * A product field of the same name fills an attribute (brand), as does what every variant
 * carries: a field of that name (barcode) or an option of that name in any case (Size), as the
 * channels read them.
 */
export function fromProduct(product: Product | undefined, name: string): boolean {
  if (!product) return false;
  if (present((product as Record<string, unknown>)[name])) return true;
  const variants = (product.variants ?? []) as Array<Record<string, unknown> & { options?: unknown }>;
  const wanted = name.toLowerCase();
  return (
    variants.length > 0 &&
    variants.every(
      (variant) =>
        present(variant[name]) ||
        Object.entries((variant.options ?? {}) as Record<string, unknown>).some(
          ([option, value]) => option.toLowerCase() === wanted && present(value),
        ),
    )
  );
}

/** The id of the account's category whose path is `path` (case-insensitive), found by searching its last part. */
export async function categoryByPath(
  client: ApiClient,
  accountId: string,
  path: string,
): Promise<string | undefined> {
  const wanted = normalise(path);
  const leaf = path.split('>').pop()?.trim() ?? path;
  for await (const category of listCategories(client, accountId, { query: leaf }, 'all')) {
    if (normalise(category.path ?? category.name) === wanted) return category.id;
  }
  return undefined;
}

function normalise(path: string): string {
  return path
    .split('>')
    .map((part) => part.trim().toLowerCase())
    .join(' > ');
}
