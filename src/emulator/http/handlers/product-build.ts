/**
 * The product a create, update or batch item would produce, built as a fresh record so a
 * test key can be answered without touching the store. Every rule of docs/service-contract.md lives
 * here: images (known ids kept, new ones hosted, left-out ones dropped, order is display
 * order, at most 20), variants matched by SKU, the dense option matrix, store-wide SKUs.
 */
import { ERROR_CODES, ERROR_TYPES, IMAGES_PER_PRODUCT_MAX } from '../../../contract/contract.js';
import { checkVariantMatrix } from '../../../contract/rules/variant-matrix.js';
import type { ImageInput, ProductInput, VariantInput } from '../../../contract/schemas/product.js';
import { isoTime } from '../../clock.js';
import type { ImageRecord, ProductRecord, VariantRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { HttpError, invalidParam } from '../errors.js';
import { CDN_BASE, decodeImage } from './files.js';

/** A create or update body, without the precondition. */
export type ProductFields = Partial<ProductInput>;

/** How to build. */
export interface BuildOptions {
  /** Prefix of every `param`, e.g. `items[3].` in a batch. */
  prefix?: string;
  /** Batch upsert: an image without id whose url is already the product's keeps that image. */
  keepImagesByUrl?: boolean;
}

/** 422 validation_failed naming the field. */
export function validationFailed(param: string, message: string): HttpError {
  return new HttpError(422, ERROR_TYPES.invalidRequest, ERROR_CODES.validationFailed, message, { param });
}

/** The record `input` makes of `existing` (or of nothing, for a create). Throws HttpError. */
export function buildProduct(
  store: Store,
  existing: ProductRecord | undefined,
  input: ProductFields,
  options: BuildOptions = {},
): ProductRecord {
  const prefix = options.prefix ?? '';
  const id = existing?.id ?? store.ids.next('prod');
  const variants =
    input.variants === undefined
      ? structuredClone(existing?.variants ?? [])
      : buildVariants(store, id, existing?.variants ?? [], input.variants, prefix);
  const images =
    input.images === undefined
      ? structuredClone(existing?.images ?? [])
      : buildImages(store, existing?.images ?? [], input.images, prefix, options.keepImagesByUrl === true);
  relinkVariantImages(variants, images);
  const nowMs = store.now();
  // Every write moves updated_at forward, so `expected_updated_at` always sees a change.
  const updatedMs = existing ? Math.max(nowMs, Date.parse(existing.updated_at) + 1) : nowMs;
  return {
    id,
    object: 'product',
    title: input.title ?? existing?.title ?? '',
    description: input.description ?? existing?.description ?? '',
    brand: input.brand ?? existing?.brand ?? '',
    category: input.category ?? existing?.category ?? '',
    short_description: input.short_description ?? existing?.short_description ?? '',
    vat_rate: input.vat_rate ?? existing?.vat_rate ?? 0,
    mpn: input.mpn ?? existing?.mpn ?? '',
    weight: input.weight
      ? { ...input.weight }
      : structuredClone(existing?.weight ?? { value: '0', unit: 'oz' }),
    dimensions: input.dimensions
      ? { ...input.dimensions }
      : structuredClone(existing?.dimensions ?? { length: '0', width: '0', height: '0', unit: 'in' }),
    tags: input.tags ? [...input.tags] : [...(existing?.tags ?? [])],
    currency: input.currency?.toUpperCase() ?? existing?.currency ?? 'USD',
    status: input.status ?? existing?.status ?? 'ready',
    sync_status: existing?.sync_status ?? 'ok',
    images,
    variants,
    created_at: existing?.created_at ?? isoTime(nowMs),
    updated_at: isoTime(updatedMs),
  };
}

function buildVariants(
  store: Store,
  productId: string,
  current: VariantRecord[],
  inputs: VariantInput[],
  prefix: string,
): VariantRecord[] {
  const firstIndex = new Map<string, number>();
  inputs.forEach((variant, index) => {
    const earlier = firstIndex.get(variant.sku);
    if (earlier !== undefined) {
      throw validationFailed(
        `${prefix}variants[${index}].sku`,
        `The SKU ${JSON.stringify(variant.sku)} appears twice in this product (variants ${earlier} and ${index}).`,
      );
    }
    firstIndex.set(variant.sku, index);
    checkVariantNaming(variant, `${prefix}variants[${index}]`);
    const owner = store.locateSku(variant.sku);
    if (owner && owner.product.id !== productId) {
      throw validationFailed(
        `${prefix}variants[${index}].sku`,
        `The SKU ${JSON.stringify(variant.sku)} already belongs to product ${owner.product.id}; SKUs are unique in the store.`,
      );
    }
  });
  const problem = checkVariantMatrix(inputs);
  if (problem) {
    const param = problem.kind === 'missing' ? `${prefix}variants` : `${prefix}variants[${problem.index}]`;
    const message = `${problem.message.charAt(0).toUpperCase()}${problem.message.slice(1)}.`;
    throw new HttpError(422, ERROR_TYPES.invalidRequest, ERROR_CODES.variantMatrixIncomplete, message, {
      param,
    });
  }
  const bySku = new Map(current.map((variant) => [variant.sku, variant]));
  return inputs.map((input) => {
    const kept = bySku.get(input.sku);
    const options = input.options && Object.keys(input.options).length > 0 ? { ...input.options } : null;
    return {
      id: kept?.id ?? store.ids.next('var'),
      object: 'variant',
      sku: input.sku,
      title: input.title ?? kept?.title ?? (options ? Object.values(options).join(' / ') : 'Default'),
      price: input.price ?? kept?.price ?? '0.00',
      msrp: input.msrp ?? kept?.msrp ?? null,
      quantity: input.quantity ?? kept?.quantity ?? 0,
      barcode: input.barcode ?? kept?.barcode ?? null,
      grams: input.grams ?? kept?.grams ?? 0,
      asin: input.asin ?? kept?.asin ?? null,
      images: structuredClone(kept?.images ?? []),
      options: input.options === undefined ? (kept?.options ?? null) : options,
    };
  });
}

/** SKUs that cannot travel in a URL path: `/inventory/..` would name another path. */
const PATH_SEGMENTS = new Set(['.', '..']);

/** A SKU that fits in a path, and option names and values that say something (422 otherwise). */
function checkVariantNaming(variant: VariantInput, param: string): void {
  if (PATH_SEGMENTS.has(variant.sku)) {
    throw validationFailed(
      `${param}.sku`,
      `The SKU ${JSON.stringify(variant.sku)} cannot be used: it would not survive in a URL path.`,
    );
  }
  for (const [name, value] of Object.entries(variant.options ?? {})) {
    if (name.trim() === '') {
      throw validationFailed(`${param}.options`, 'An option name cannot be empty; name it (e.g. "Size").');
    }
    if (value.trim() === '') {
      throw validationFailed(
        `${param}.options.${name}`,
        `The option ${JSON.stringify(name)} has an empty value; give it one (e.g. "M").`,
      );
    }
  }
}

function buildImages(
  store: Store,
  current: ImageRecord[],
  inputs: ImageInput[],
  prefix: string,
  keepByUrl: boolean,
): ImageRecord[] {
  if (inputs.length > IMAGES_PER_PRODUCT_MAX) {
    throw validationFailed(
      `${prefix}images`,
      `A product holds at most ${IMAGES_PER_PRODUCT_MAX} images; the request has ${inputs.length}.`,
    );
  }
  const byId = new Map(current.map((image) => [image.id, image]));
  const used = new Set<string>();
  return inputs.map((input, position) => {
    const param = `${prefix}images[${position}]`;
    let kept = input.id === undefined ? undefined : byId.get(input.id);
    if (input.id !== undefined && !kept) {
      throw validationFailed(
        `${param}.id`,
        `The product has no image ${input.id}; send new images without an id.`,
      );
    }
    if (!kept && keepByUrl && input.url !== undefined) {
      kept = current.find((image) => image.url === input.url && !used.has(image.id));
    }
    if (kept) {
      if (used.has(kept.id)) throw validationFailed(`${param}.id`, `The image ${kept.id} appears twice.`);
      used.add(kept.id);
      // Known images are kept untouched (not re-hosted); only their place and alt text move.
      return { ...kept, alt: input.alt ?? kept.alt, position };
    }
    const id = store.ids.next('img');
    return { id, object: 'image', url: hostedUrl(id, input, param), alt: input.alt ?? '', position };
  });
}

/** Where a new image is hosted: files already on the emulator's CDN stay where they are. */
function hostedUrl(id: string, input: ImageInput, param: string): string {
  if (input.base64 !== undefined) {
    return `${CDN_BASE}/images/${id}.${decodeImage(input.base64, `${param}.base64`).type.extension}`;
  }
  const url = input.url as string;
  if (url.startsWith(`${CDN_BASE}/`)) return url;
  if (!/^https?:\/\//i.test(url)) throw invalidParam(`${param}.url`, `${param}.url must be an http(s) URL.`);
  const extension = /\.(png|webp|jpe?g)$/i
    .exec(new URL(url).pathname)?.[1]
    ?.toLowerCase()
    .replace('jpeg', 'jpg');
  return `${CDN_BASE}/images/${id}.${extension ?? 'jpg'}`;
}

/** Variant image references follow the product's images: dropped ones go, urls and positions follow. */
function relinkVariantImages(variants: VariantRecord[], images: ImageRecord[]): void {
  const byId = new Map(images.map((image) => [image.id, image]));
  for (const variant of variants) {
    variant.images = variant.images.flatMap((ref) => {
      const image = byId.get(ref.image_id);
      return image ? [{ image_id: image.id, url: image.url, position: image.position }] : [];
    });
  }
}
