/** Seeded products (variants, images, some with a dense option matrix) and their listings. */

import { channelKind } from '../channel-kinds.js';
import { isoTime } from '../clock.js';
import type { ImageRecord, IssueRecord, ListingRecord, ProductRecord, VariantRecord } from '../model.js';
import type { SeededAccount } from './accounts.js';
import { DAY_MS, type SeedContext, timeBetween } from './context.js';
import { ADJECTIVES, BRANDS, TEMPLATES, type Template } from './templates.js';

/** True for product indexes seeded without any image (the photo-required channel rejects them). */
export function seedsWithoutImages(index: number): boolean {
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
  const suffix = Object.values(combo)
    .map((value) => value.replace(/[^A-Za-z0-9]/g, '').toUpperCase())
    .join('-');
  const base =
    template.skuStyle === 'slash'
      ? `${template.code}/${number}`
      : template.skuStyle === 'space'
        ? `${template.code} ${number}`
        : `${template.code}-${number}`;
  return suffix ? `${base}-${suffix}` : base;
}

/** `count` products with unique SKUs across the store. */
export function seedProducts(ctx: SeedContext, count: number): ProductRecord[] {
  const { rng, ids } = ctx;
  const products: ProductRecord[] = [];
  for (let index = 0; index < count; index++) {
    const template = TEMPLATES[index % TEMPLATES.length];
    const brand = BRANDS[index % BRANDS.length];
    const adjective = rng.pick(ADJECTIVES);
    // Every ninth title is long enough for a channel with a title limit to refuse it.
    const title =
      index % 9 === 5
        ? `${brand} ${adjective} ${template.name} with Reinforced Stitching, Gift Box and Lifetime Warranty, Multipack Edition`
        : `${brand} ${adjective} ${template.name}`;
    const createdMs = timeBetween(ctx, ctx.now - 400 * DAY_MS, ctx.now - 2 * DAY_MS);
    const updatedMs = timeBetween(ctx, createdMs, ctx.now, 3);
    const images: ImageRecord[] = [];
    const imageCount = seedsWithoutImages(index) ? 0 : rng.int(1, 5);
    for (let position = 0; position < imageCount; position++) {
      const id = ids.next('img');
      images.push({
        id,
        object: 'image',
        url: `https://cdn.emulator.invalid/images/${id}.jpg`,
        alt: `${title}, view ${position + 1}`,
        position,
      });
    }
    const basePrice = rng.int(template.price[0] * 100, template.price[1] * 100) / 100;
    const variants: VariantRecord[] = combinations(template.options).map((combo, variantIndex) => {
      const price = basePrice + variantIndex * (rng.chance(0.5) ? 1 : 0);
      const image = images.length > 0 ? images[variantIndex % images.length] : undefined;
      const optionTitle = Object.values(combo).join(' / ');
      return {
        id: ids.next('var'),
        object: 'variant',
        sku: skuFor(template, index, combo),
        title: optionTitle || 'Default',
        price: money(price),
        msrp: rng.chance(0.3) ? money(price * 1.25) : null,
        quantity: rng.chance(0.1) ? 0 : rng.int(1, 250),
        barcode: rng.chance(0.12) ? null : `0${rng.digits(11)}`,
        grams: rng.int(template.grams[0], template.grams[1]),
        asin: rng.chance(0.3) ? `B0${rng.token(8).toUpperCase()}` : null,
        images: image ? [{ image_id: image.id, url: image.url, position: 0 }] : [],
        options: template.options.length > 0 ? combo : null,
      };
    });
    products.push({
      id: ids.next('prod'),
      object: 'product',
      title,
      description: `${title}. Made by ${brand}; ${template.tags.join(', ')}.`,
      brand,
      category: template.category,
      short_description: `${adjective} ${template.name.toLowerCase()} by ${brand}`,
      vat_rate: 20,
      mpn: `${template.code}${String(index + 1).padStart(5, '0')}`,
      weight: { value: (variants[0].grams / 28.3495).toFixed(1), unit: 'oz' },
      dimensions: {
        length: String(rng.int(2, 30)),
        width: String(rng.int(2, 20)),
        height: String(rng.int(1, 12)),
        unit: 'in',
      },
      tags: [...template.tags],
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

function errorIssues(kind: string, product: ProductRecord): IssueRecord[] {
  if (kind === 'etsy' && product.images.length === 0) {
    return [
      {
        code: 'photo_required_for_channel',
        severity: 'error',
        message:
          'Etsy requires at least one photo for every listing. Add an image to the product and resync.',
        attribute_names: [],
      },
    ];
  }
  const typical = channelKind(kind).typicalIssue;
  if (typical === 'missing_required_attribute' || kind === 'etsy') {
    const names = kind === 'etsy' ? ['who_made'] : ['brand', 'barcode'];
    return [
      {
        code: 'missing_required_attribute',
        severity: 'error',
        message: `The category requires ${names.join(' and ')}, which the listing does not provide.`,
        attribute_names: names,
      },
    ];
  }
  if (typical === 'title_too_long') {
    return [
      {
        code: 'title_too_long',
        severity: 'error',
        message: `The title has ${product.title.length} characters; this channel accepts at most 75.`,
        attribute_names: ['title'],
      },
    ];
  }
  return [
    {
      code: 'category_invalid',
      severity: 'error',
      message: 'The chosen category is not a leaf category on this channel.',
      attribute_names: ['category_id'],
    },
    {
      code: 'price_below_minimum',
      severity: 'warning',
      message: 'The price is below the channel minimum for this category.',
      attribute_names: ['price'],
    },
  ];
}

/** Listings of the products on the accounts: every status on every account, errors with issues. */
export function seedListings(
  ctx: SeedContext,
  products: ProductRecord[],
  accounts: SeededAccount[],
): ListingRecord[] {
  const { rng, ids } = ctx;
  const listings: ListingRecord[] = [];
  const counters = accounts.map(() => 0);
  products.forEach((product, productIndex) => {
    accounts.forEach(({ account, site }, accountIndex) => {
      const kind = account.channel;
      const photoless = product.images.length === 0;
      // A photo-less product is always tried on the photo-requiring channel, and fails there.
      const forced = kind === 'etsy' && photoless;
      if (!forced && !rng.chance(0.6)) return;
      const status = forced
        ? 'error'
        : STATUS_CYCLE[(counters[accountIndex] + accountIndex) % STATUS_CYCLE.length];
      counters[accountIndex]++;
      const profile = channelKind(kind);
      const createdMs = timeBetween(ctx, Date.parse(product.created_at), ctx.now - DAY_MS);
      const updatedMs = timeBetween(ctx, createdMs, ctx.now, 2);
      const everListed = status !== 'error' && !(status === 'ongoing' && rng.chance(0.5));
      const idOnChannel = everListed ? profile.listingIdOnChannel(rng) : null;
      let issues: IssueRecord[] = [];
      if (status === 'error') issues = errorIssues(kind, product);
      else if (status === 'listed' && productIndex % 5 === 2) {
        issues = [
          {
            code: product.title.length > 75 ? 'title_too_long' : 'image_resolution_low',
            severity: 'warning',
            message:
              product.title.length > 75
                ? 'The title will be shortened on this channel.'
                : 'Some images are below the recommended 1000 px.',
            attribute_names: [],
          },
        ];
      }
      listings.push({
        id: ids.next('list'),
        object: 'listing',
        product_id: product.id,
        channel_account_id: account.id,
        channel: kind,
        status,
        id_on_channel: idOnChannel,
        url_on_channel: idOnChannel ? profile.listingUrl(site, idOnChannel) : null,
        site,
        overrides: productIndex % 4 === 1 ? { title: product.title.slice(0, 60) } : {},
        attributes: { brand: product.brand, condition: 'New' },
        variants: product.variants.map((variant) => ({
          variant_id: variant.id,
          sku: variant.sku,
          id_on_channel: idOnChannel ? `${idOnChannel}-${variant.id.slice(-4)}` : null,
          status: VARIANT_STATUS[status],
        })),
        issues,
        operation_id: null,
        created_at: isoTime(createdMs),
        updated_at: isoTime(updatedMs),
      });
    });
  });
  return listings;
}
