/**
 * What each channel kind insists on before a listing goes live: photos, brand and barcode,
 * title length, and the schema of the category a listing names. Pure: it reads the store.
 */
import type { ChannelAccountRecord, IssueRecord, ListingRecord, ProductRecord } from '../model.js';
import type { Store } from '../store/store.js';

/** The title limit of the kind that limits titles. */
export const TITLE_MAX_CHARS = 75;

/** What each kind insists on, beyond the schema of an explicitly chosen category. */
const KIND_RULES: Record<string, { photo?: boolean; brandAndBarcode?: boolean; titleMax?: number }> = {
  etsy: { photo: true },
  amazon: { brandAndBarcode: true },
  ebay: { brandAndBarcode: true },
  walmart: { titleMax: TITLE_MAX_CHARS },
};

/** The category a listing names explicitly on an account with a taxonomy, if any. */
function chosenCategory(store: Store, listing: ListingRecord) {
  const categoryId = listing.overrides.category_id;
  if (typeof categoryId !== 'string') return undefined;
  const taxonomy = store.taxonomies.get(listing.channel_account_id);
  if (!taxonomy) return undefined;
  return {
    categoryId,
    taxonomy,
    category: taxonomy.categories.find((candidate) => candidate.id === categoryId),
  };
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/**
 * Every issue the channel finds with a listing now. Kind rules always apply; a category
 * chosen with `overrides.category_id` also brings its schema's required attributes (without
 * one, the channel maps the product's own category and asks for nothing more).
 */
export function listingIssues(
  store: Store,
  listing: ListingRecord,
  product: ProductRecord,
  account: ChannelAccountRecord,
): IssueRecord[] {
  const rules = KIND_RULES[listing.channel] ?? {};
  const issues: IssueRecord[] = [];
  const attributes = listing.attributes ?? {};
  // The product's own brand and barcodes count where the listing gives none.
  const has = (name: string): boolean => {
    if (present(attributes[name])) return true;
    if (name === 'brand') return present(product.brand);
    if (name === 'barcode')
      return product.variants.length > 0 && product.variants.every((variant) => present(variant.barcode));
    return false;
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
  const chosen = chosenCategory(store, listing);
  if (chosen && !chosen.category?.leaf) {
    issues.push({
      code: 'category_invalid',
      severity: 'error',
      message: chosen.category
        ? `Category ${chosen.categoryId} (${chosen.category.path}) is not a leaf category on ${account.label}; choose one of its subcategories.`
        : `Category ${chosen.categoryId} does not exist on ${account.label}; search categories for a valid id.`,
      attribute_names: ['category_id'],
    });
  } else if (chosen?.category) {
    const schema = chosen.taxonomy.schemas.get(chosen.category.id) ?? [];
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
        message: `${invalid.join(', ')} ${invalid.length === 1 ? 'has a value' : 'have values'} that ${chosen.category.path} does not accept; see the category's attribute schema.`,
        attribute_names: invalid,
      });
    }
  }
  if (missing.size > 0) {
    const names = [...missing];
    issues.push({
      code: 'missing_required_attribute',
      severity: 'error',
      message: `${account.label} requires ${names.join(' and ')}, which the listing does not provide. Add ${names.length === 1 ? 'it' : 'them'} as attributes and resync.`,
      attribute_names: names,
    });
  }
  return issues;
}
