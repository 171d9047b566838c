/**
 * What each channel kind insists on before a listing goes live: photos, brand and barcode,
 * title length, and the schema of the listing's category. Pure, so the seed makes only the
 * issues a resync would find again, and the channel simulation judges by the same words.
 */
import { plural } from '../words.js';
import type {
  CategoryRecord,
  ChannelAccountRecord,
  IssueRecord,
  ListingRecord,
  ProductRecord,
  TaxonomyRecord,
  VariantRecord,
} from './model.js';

/** The title limit of the kind that limits titles. */
const TITLE_MAX_CHARS = 75;

/** What each kind insists on, beyond the schema of the listing's category. */
const KIND_RULES: Record<string, { photo?: boolean; brandAndBarcode?: boolean; titleMax?: number }> = {
  etsy: { photo: true },
  amazon: { brandAndBarcode: true },
  ebay: { brandAndBarcode: true },
  walmart: { titleMax: TITLE_MAX_CHARS },
};

/** The category whose schema applies to a listing (undefined when a chosen id names none). */
interface ListingCategory {
  categoryId: string;
  category: CategoryRecord | undefined;
}

/**
 * The category a listing is judged under on an account with a taxonomy: the one it names in
 * `overrides.category_id`, else the leaf the product's own category maps to, if any.
 */
function categoryOf(
  listing: ListingRecord,
  product: ProductRecord,
  taxonomy: TaxonomyRecord | undefined,
): ListingCategory | undefined {
  if (!taxonomy) return undefined;
  const categoryId = listing.overrides.category_id;
  if (typeof categoryId === 'string') {
    return { categoryId, category: taxonomy.categories.find((candidate) => candidate.id === categoryId) };
  }
  const mapped = productCategory(product, taxonomy);
  return mapped ? { categoryId: mapped.id, category: mapped } : undefined;
}

/** The leaf of a taxonomy that a product's own category names by its path (any case and spacing). */
export function productCategory(
  product: ProductRecord,
  taxonomy: TaxonomyRecord | undefined,
): CategoryRecord | undefined {
  if (!taxonomy) return undefined;
  let leaves = leavesByPath.get(taxonomy);
  if (!leaves) {
    leaves = new Map();
    for (const candidate of taxonomy.categories)
      if (candidate.leaf && !leaves.has(normalizedPath(candidate.path)))
        leaves.set(normalizedPath(candidate.path), candidate);
    leavesByPath.set(taxonomy, leaves);
  }
  return leaves.get(normalizedPath(product.category));
}

/**
 * The leaves of each taxonomy by their path: a million listings look their category up in a
 * Map, not in a pass over the tree. Taxonomies are seeded once and never change.
 */
const leavesByPath = new WeakMap<TaxonomyRecord, Map<string, CategoryRecord>>();

function normalizedPath(path: string): string {
  let normalized = normalizedPaths.get(path);
  if (normalized === undefined) {
    normalized = path
      .split('>')
      .map((part) => part.trim().toLowerCase())
      .join(' > ');
    // A store has a few categories; a bound keeps odd data from growing the memo.
    if (normalizedPaths.size < 10_000) normalizedPaths.set(path, normalized);
  }
  return normalized;
}

const normalizedPaths = new Map<string, string>();

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * Every error the channel finds with a listing now. Kind rules always apply; the listing's
 * category (chosen with `overrides.category_id`, or mapped from the product's own category)
 * brings its schema: required attributes and accepted values. An attribute is given by the
 * listing, by the product (brand, barcodes), or by an option every variant has (Size).
 */
export function listingIssues(
  listing: ListingRecord,
  product: ProductRecord,
  account: ChannelAccountRecord,
  taxonomy: TaxonomyRecord | undefined,
): IssueRecord[] {
  const rules = KIND_RULES[listing.channel] ?? {};
  const issues: IssueRecord[] = [];
  const attributes = listing.attributes ?? {};
  const has = (name: string): boolean => {
    if (present(attributes[name])) return true;
    if (name === 'brand') return present(product.brand);
    if (name === 'barcode')
      return product.variants.length > 0 && product.variants.every((variant) => present(variant.barcode));
    return (
      product.variants.length > 0 && product.variants.every((variant) => present(optionOf(variant, name)))
    );
  };
  if (rules.photo && product.images.length === 0) {
    issues.push({
      code: 'photo_required_for_channel',
      severity: 'error',
      message: `${account.label} requires at least one photo for every listing. Add an image to the product and resync.`,
      attribute_names: [],
    });
  }
  const title = typeof listing.overrides.title === 'string' ? listing.overrides.title : product.title;
  if (rules.titleMax !== undefined && title.length > rules.titleMax) {
    issues.push({
      code: 'title_too_long',
      severity: 'error',
      message: `The title has ${title.length} characters; ${account.label} accepts at most ${rules.titleMax}. Set a shorter title override and resync.`,
      attribute_names: ['title'],
    });
  }
  const missing = new Set<string>();
  if (rules.brandAndBarcode) for (const name of ['brand', 'barcode']) if (!has(name)) missing.add(name);
  const judged = categoryOf(listing, product, taxonomy);
  if (judged && !judged.category?.leaf) {
    issues.push({
      code: 'category_invalid',
      severity: 'error',
      message: judged.category
        ? `Category ${judged.categoryId} (${judged.category.name}) is not a leaf category on ${account.label}; choose one of its subcategories.`
        : `Category ${judged.categoryId} does not exist on ${account.label}; search categories for a valid id.`,
      attribute_names: ['category_id'],
    });
  } else if (judged?.category) {
    const schema = taxonomy?.schemas.get(judged.category.id) ?? [];
    const invalid: string[] = [];
    for (const attribute of schema) {
      if (attribute.required && !has(attribute.name)) missing.add(attribute.name);
      const value = attributes[attribute.name];
      if (present(value) && attribute.values && !attribute.values.includes(String(value)))
        invalid.push(attribute.name);
    }
    if (invalid.length > 0) {
      issues.push({
        code: 'attribute_value_invalid',
        severity: 'error',
        message: `${invalid.join(', ')} ${plural(invalid.length, 'has a value', 'have values')} that the category ${judged.category.name} does not accept; see its attribute schema.`,
        attribute_names: invalid,
      });
    }
  }
  if (missing.size > 0) {
    const names = [...missing];
    issues.push({
      code: 'missing_required_attribute',
      severity: 'error',
      message: `${account.label} requires ${names.join(' and ')}, which the listing does not provide. Add ${plural(names.length, 'it', 'them')} as attributes and resync.`,
      attribute_names: names,
    });
  }
  return issues;
}

/** The value of a variant's option named like `name` (any case), if it has one. */
function optionOf(variant: VariantRecord, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [option, value] of Object.entries(variant.options ?? {}))
    if (option.toLowerCase() === wanted) return value;
  return undefined;
}

/** The warnings a listing carries once live: a title the channel will shorten. */
export function liveIssues(listing: ListingRecord, product: ProductRecord): IssueRecord[] {
  if (product.title.length <= TITLE_MAX_CHARS || listing.overrides.title) return [];
  return [
    {
      code: 'title_too_long',
      severity: 'warning',
      message: 'The title will be shortened on this channel.',
      attribute_names: [],
    },
  ];
}
