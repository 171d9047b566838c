/** Seeded products (variants, images, some with a dense option matrix) and their listings. */

import { channelKind } from '../channel-kinds.js';
import { listingIssues, liveIssues, productCategory } from '../channel-rules.js';
import { isoTime } from '../clock.js';
import type {
  AttributeRecord,
  CategoryRecord,
  ChannelAccountRecord,
  ImageRecord,
  ListingRecord,
  ProductRecord,
  TaxonomyRecord,
  VariantRecord,
} from '../model.js';
import type { SeededAccount } from './accounts.js';
import { DAY_MS, type SeedContext, shared, timeBetween } from './context.js';
import { ADJECTIVES, BRANDS, TEMPLATES, type Template } from './templates.js';

/** True for product indexes seeded without any image (the photo-required channel rejects them). */
function seedsWithoutImages(index: number): boolean {
  return index % 7 === 3;
}

function money(value: number): string {
  return value.toFixed(2);
}

function combinations(options: [string, string[]][]): Record<string, string>[] {
  let combos: Record<string, string>[] = [{}];
  for (const [name, values] of options) {
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
  }
  return combos;
}

function skuFor(template: Template, index: number, combo: Record<string, string>): string {
  const number = String(index + 1).padStart(4, '0');
  const separator = template.skuStyle === 'slash' ? '/' : template.skuStyle === 'space' ? ' ' : '-';
  const base = [template.code, number].join(separator);
  const suffix = Object.values(combo).map((value) => value.replace(/[^A-Za-z0-9]/g, '').toUpperCase());
  // Joined: one flat string, not a chain of concatenations that a Map key would copy flat again.
  return suffix.length > 0 ? [base, ...suffix].join('-') : base;
}

/**
 * `count` products with unique SKUs across the store. Parts no write changes in place are
 * shared: a template's option values, an image's reference from its variants (a million
 * SKUs would otherwise keep a million copies of each).
 */
export function seedProducts(ctx: SeedContext, count: number): ProductRecord[] {
  const { rng, ids } = ctx;
  const products: ProductRecord[] = [];
  const combosOf = TEMPLATES.map((template) => combinations(template.options));
  const tagsOf = TEMPLATES.map((template) => [...template.tags]);
  // Weights and sizes repeat: one object of each (a write replaces them, never changes them in place).
  const kept = new Map<string, ProductRecord['weight'] | ProductRecord['dimensions']>();
  const once = <T extends ProductRecord['weight'] | ProductRecord['dimensions']>(
    key: string,
    make: () => T,
  ): T => {
    const found = kept.get(key);
    if (found) return found as T;
    const made = make();
    kept.set(key, made);
    return made;
  };
  const dimensions = (length: number, width: number, height: number) =>
    once(`dimensions|${length}|${width}|${height}`, () => ({
      length: String(length),
      width: String(width),
      height: String(height),
      unit: 'in',
    }));
  for (let index = 0; index < count; index++) {
    const template = TEMPLATES[index % TEMPLATES.length];
    const brand = BRANDS[index % BRANDS.length];
    const adjective = rng.pick(ADJECTIVES);
    // Every ninth title is long enough for a channel with a title limit to refuse it.
    const text = (value: string) => shared(ctx, value);
    const title = text(
      index % 9 === 5
        ? `${brand} ${adjective} ${template.name} with Reinforced Stitching, Gift Box and Lifetime Warranty, Multipack Edition`
        : `${brand} ${adjective} ${template.name}`,
    );
    const createdMs = timeBetween(ctx, ctx.now - 400 * DAY_MS, ctx.now - 2 * DAY_MS);
    const updatedMs = timeBetween(ctx, createdMs, ctx.now, 3);
    const images: ImageRecord[] = [];
    const imageRefs: VariantRecord['images'][] = [];
    const imageCount = seedsWithoutImages(index) ? 0 : rng.int(1, 5);
    for (let position = 0; position < imageCount; position++) {
      const id = ids.next('img');
      images.push({
        id,
        object: 'image',
        url: `https://cdn.emulator.invalid/images/${id}.jpg`,
        alt: text(`${title}, view ${position + 1}`),
        position,
      });
      imageRefs.push([{ image_id: id, url: images[position].url, position: 0 }]);
    }
    const basePrice = rng.int(template.price[0] * 100, template.price[1] * 100) / 100;
    const variants: VariantRecord[] = combosOf[index % TEMPLATES.length].map((combo, variantIndex) => {
      const price = basePrice + variantIndex * (rng.chance(0.5) ? 1 : 0);
      const optionTitle = Object.values(combo).join(' / ');
      return {
        id: ids.next('var'),
        object: 'variant',
        sku: skuFor(template, index, combo),
        title: optionTitle ? text(optionTitle) : 'Default',
        price: text(money(price)),
        msrp: rng.chance(0.3) ? text(money(price * 1.25)) : null,
        quantity: rng.chance(0.1) ? 0 : rng.int(1, 250),
        barcode: rng.chance(0.12) ? null : `0${rng.digits(11)}`,
        grams: rng.int(template.grams[0], template.grams[1]),
        asin: rng.chance(0.3) ? `B0${rng.token(8).toUpperCase()}` : null,
        images: imageRefs.length > 0 ? imageRefs[variantIndex % imageRefs.length] : [],
        options: template.options.length > 0 ? combo : null,
      };
    });
    products.push({
      id: ids.next('prod'),
      object: 'product',
      title,
      description: text(`${title}. Made by ${brand}; ${template.tags.join(', ')}.`),
      brand,
      category: template.category,
      short_description: text(`${adjective} ${template.name.toLowerCase()} by ${brand}`),
      vat_rate: 20,
      mpn: `${template.code}${String(index + 1).padStart(5, '0')}`,
      weight: once(`weight|${(variants[0].grams / 28.3495).toFixed(1)}`, () => ({
        value: (variants[0].grams / 28.3495).toFixed(1),
        unit: 'oz',
      })),
      dimensions: dimensions(rng.int(2, 30), rng.int(2, 20), rng.int(1, 12)),
      tags: tagsOf[index % TEMPLATES.length],
      currency: 'USD',
      status: index % 17 === 16 ? 'draft' : 'ready',
      sync_status: 'ok',
      images,
      variants,
      created_at: isoTime(createdMs),
      updated_at: isoTime(updatedMs),
    });
  }
  return products;
}

// Listing statuses in turn per account, so every account shows every status.
const STATUS_CYCLE = [
  'listed',
  'error',
  'listed',
  'imported',
  'ongoing',
  'listed',
  'delisted',
  'error',
  'listed',
];
const VARIANT_STATUS: Record<string, string> = {
  listed: 'active',
  imported: 'active',
  ongoing: 'pending',
  error: 'error',
  delisted: 'inactive',
};

/** A value a required attribute accepts, for listings seeded to pass. */
function sampleValue(name: string, schema: AttributeRecord[]): string {
  const attribute = schema.find((candidate) => candidate.name === name);
  if (attribute?.values) return attribute.values[0];
  if (attribute?.type === 'number') return '2';
  if (attribute?.type === 'boolean') return 'true';
  if (name === 'barcode') return '012345678905';
  return name === 'material' ? 'Cotton' : 'Unspecified';
}

type Breakage = (listing: ListingRecord, product: ProductRecord, leaf: CategoryRecord | undefined) => void;

/** Ways to make a listing fail that its kind's rules see, tried in turn for variety; each changes only the listing. */
const BREAKAGES: Breakage[] = [
  // A required attribute of the category left out (condition on eBay, who_made on Etsy, …).
  (listing, _product, leaf) => {
    if (leaf) listing.attributes = { brand: listing.attributes.brand };
  },
  // A value the category does not accept.
  (listing, _product, leaf) => {
    if (leaf) listing.attributes = { ...listing.attributes, condition: 'Mint' };
  },
  // A category chosen that is not a leaf.
  (listing, _product, leaf) => {
    if (leaf?.parent_id) listing.overrides = { ...listing.overrides, category_id: leaf.parent_id };
  },
  // A title override longer than a title-limited channel takes.
  (listing, product) => {
    listing.overrides = { ...listing.overrides, title: `${product.title} ${LONG_TITLE_TAIL}` };
  },
];

const LONG_TITLE_TAIL = 'with Reinforced Stitching, Gift Box and Lifetime Warranty, Multipack Edition';

/**
 * Settle a seeded listing with the channel rules, so that a resync finds what it shows: it
 * first gets the attributes and title its channel asks for; one meant to fail then keeps a
 * cause the rules see (a photo missing, or one of BREAKAGES), so a resync fails again with
 * the same issues, and any other goes live again on a resync.
 * Returns the status it ends with: where nothing can break a kind's rules (no photo, title
 * or category rules), a listing meant to fail is listed instead.
 */
function settleWithRules(
  listing: ListingRecord,
  product: ProductRecord,
  account: ChannelAccountRecord,
  taxonomy: TaxonomyRecord | undefined,
  breakage: number,
): string {
  const leaf = productCategory(product, taxonomy);
  const schema = leaf ? (taxonomy?.schemas.get(leaf.id) ?? []) : [];
  giveWhatIsAsked(listing, product, account, taxonomy, schema);
  if (listing.status === 'error') {
    const { attributes, overrides } = listing;
    for (let tried = 0; tried <= BREAKAGES.length; tried++) {
      const issues = listingIssues(listing, product, account, taxonomy);
      if (issues.length > 0) {
        listing.issues = issues;
        return 'error';
      }
      listing.attributes = { ...attributes };
      listing.overrides = { ...overrides };
      if (tried < BREAKAGES.length) BREAKAGES[(breakage + tried) % BREAKAGES.length](listing, product, leaf);
    }
  }
  giveWhatIsAsked(listing, product, account, taxonomy, schema);
  const left = listingIssues(listing, product, account, taxonomy);
  if (left.length > 0) {
    listing.issues = left;
    return 'error';
  }
  const status = listing.status === 'error' ? 'listed' : listing.status;
  listing.issues = status === 'listed' || status === 'imported' ? liveIssues(listing, product) : [];
  return status;
}

/** Add the attributes and the shorter title the rules ask a listing for (a photo cannot be added). */
function giveWhatIsAsked(
  listing: ListingRecord,
  product: ProductRecord,
  account: ChannelAccountRecord,
  taxonomy: TaxonomyRecord | undefined,
  schema: AttributeRecord[],
): void {
  for (const issue of listingIssues(listing, product, account, taxonomy)) {
    if (issue.code === 'missing_required_attribute') {
      for (const name of issue.attribute_names) listing.attributes[name] = sampleValue(name, schema);
    } else if (issue.code === 'title_too_long') {
      listing.overrides = { ...listing.overrides, title: product.title.slice(0, 60) };
    }
  }
}

/** Listings of the products on the accounts: every status on every account, errors the rules find. */
export function seedListings(
  ctx: SeedContext,
  products: ProductRecord[],
  accounts: SeededAccount[],
  taxonomies: Map<string, TaxonomyRecord>,
): ListingRecord[] {
  const { rng, ids } = ctx;
  const listings: ListingRecord[] = [];
  const counters = accounts.map(() => 0);
  let failures = 0;
  // Equal parts are kept once (an empty override, the same attributes, a variant list never
  // listed): the store replaces these parts on a write, it never changes them in place.
  const kept = new Map<string, unknown>();
  const once = <T>(key: string, value: T): T => {
    const found = kept.get(key);
    if (found !== undefined) return found as T;
    kept.set(key, value);
    return value;
  };
  const onceByContent = <T>(value: T): T => once(JSON.stringify(value), value);
  products.forEach((product, productIndex) => {
    accounts.forEach(({ account, site }, accountIndex) => {
      const kind = account.channel;
      const photoless = product.images.length === 0;
      // A photo-less product is always tried on the photo-requiring channel, and fails there.
      const forced = kind === 'etsy' && photoless;
      if (!forced && !rng.chance(0.6)) return;
      const planned = forced
        ? 'error'
        : STATUS_CYCLE[(counters[accountIndex] + accountIndex) % STATUS_CYCLE.length];
      counters[accountIndex]++;
      const profile = channelKind(kind);
      const createdMs = timeBetween(ctx, Date.parse(product.created_at), ctx.now - DAY_MS);
      const updatedMs = timeBetween(ctx, createdMs, ctx.now, 2);
      const listing: ListingRecord = {
        id: ids.next('list'),
        object: 'listing',
        product_id: product.id,
        channel_account_id: account.id,
        channel: kind,
        status: planned,
        id_on_channel: null,
        url_on_channel: null,
        site,
        overrides: productIndex % 4 === 1 ? { title: product.title.slice(0, 60) } : {},
        attributes: { brand: product.brand, condition: 'New' },
        variants: [],
        issues: [],
        operation_id: null,
        created_at: isoTime(createdMs),
        updated_at: isoTime(updatedMs),
      };
      if (planned === 'error') failures++;
      const status = settleWithRules(listing, product, account, taxonomies.get(account.id), failures);
      // Titles and issue messages repeat across listings: one copy of each.
      if (typeof listing.overrides.title === 'string')
        listing.overrides.title = shared(ctx, listing.overrides.title);
      for (const issue of listing.issues) issue.message = shared(ctx, issue.message);
      listing.overrides = onceByContent(listing.overrides);
      listing.attributes = onceByContent(listing.attributes);
      listing.issues = onceByContent(listing.issues);
      const everListed = status !== 'error' && !(status === 'ongoing' && rng.chance(0.5));
      const idOnChannel = everListed ? profile.listingIdOnChannel(rng) : null;
      listing.status = status;
      listing.id_on_channel = idOnChannel;
      listing.url_on_channel = idOnChannel ? profile.listingUrl(site, idOnChannel) : null;
      const variantsOf = () =>
        product.variants.map((variant) => ({
          variant_id: variant.id,
          sku: variant.sku,
          // Joined: one flat string, where a concatenation keeps its pieces and a pair.
          id_on_channel: idOnChannel ? [idOnChannel, variant.id.slice(-4)].join('-') : null,
          status: VARIANT_STATUS[status],
        }));
      listing.variants = idOnChannel ? variantsOf() : once(`variants|${product.id}|${status}`, variantsOf());
      listings.push(listing);
    });
  });
  return listings;
}
