/**
 * Image edits as the service takes them (docs/service-contract.md): the client sends the desired full array, known
 * images by id (kept untouched), new ones by url. Plus the local checks of an upload: the
 * file exists, is at most 10 MB and is a JPEG, PNG or WebP by its content.
 */
import { open, stat } from 'node:fs/promises';
import { FILE_MAX_BYTES, IMAGES_PER_PRODUCT_MAX } from '../../contract/contract.js';
import { humanBytes, type ImageType, sniffImageType } from '../../contract/rules/image-type.js';
import type { Image, ImageInput } from '../../contract/schemas/product.js';
import { FileError, UsageError } from '../../errors.js';
import { plural } from '../../words.js';

/** A local image that passed the checks. */
export interface LocalImage {
  path: string;
  bytes: Buffer;
  type: ImageType;
}

/** True for an argument that is an http(s) URL rather than a local path. */
export function isImageUrl(arg: string): boolean {
  return /^https?:\/\//i.test(arg);
}

/** Reads a local image, refusing (UsageError) a missing file, one over 10 MB, or one that is not an image. */
export async function readLocalImage(path: string): Promise<LocalImage> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') throw new FileError(`no such file: ${path}`);
    throw new FileError(`cannot read ${path}: ${error.message}`);
  });
  if (!info.isFile()) throw new UsageError(`${path} is not a file`);
  if (info.size > FILE_MAX_BYTES) {
    throw new UsageError(
      `${path} is ${humanBytes(info.size)}; uploads are limited to ${humanBytes(FILE_MAX_BYTES)}, shrink it first`,
    );
  }
  const handle = await open(path, 'r');
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  const type = sniffImageType(bytes);
  if (!type)
    throw new UsageError(`${path} is not a JPEG, PNG or WebP image (judged by its content, not its name)`);
  return { path, bytes, type };
}

/** The full array that keeps every current image and appends `urls`; refuses a 21st image. */
export function planAdd(productId: string, current: readonly Image[], urls: readonly string[]): ImageInput[] {
  const total = current.length + urls.length;
  if (total > IMAGES_PER_PRODUCT_MAX) {
    throw new UsageError(
      `${productId} has ${current.length} ${plural(current.length, 'image')}; adding ${urls.length} would make ${total}, and a product holds at most ${IMAGES_PER_PRODUCT_MAX}; nothing was uploaded or changed (remove some first with svc products images remove)`,
    );
  }
  return [...keep(current), ...urls.map((url) => ({ url }))];
}

/** The full array without `ids`; every id must be one of the product's images. */
export function planRemove(
  productId: string,
  current: readonly Image[],
  ids: readonly string[],
): ImageInput[] {
  requireKnown(productId, current, ids);
  const dropped = new Set(ids);
  return keep(current.filter((image) => !dropped.has(image.id)));
}

/** `ids` first in the order given, then the other images in their current order. */
export function planReorder(
  productId: string,
  current: readonly Image[],
  ids: readonly string[],
): ImageInput[] {
  requireKnown(productId, current, ids);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new UsageError(`${twice} is given twice; name each image once`);
  const first = new Set(ids);
  const byId = new Map(current.map((image) => [image.id, image]));
  const ordered = [
    ...ids.map((id) => byId.get(id) as Image),
    ...current.filter((image) => !first.has(image.id)),
  ];
  return keep(ordered);
}

/** Current images in display order (by position, then array order). */
export function displayOrder(images: readonly Image[] | null | undefined): Image[] {
  return [...(images ?? [])]
    .map((image, index) => ({ image, index }))
    .sort((a, b) => (a.image.position ?? a.index) - (b.image.position ?? b.index) || a.index - b.index)
    .map(({ image }) => image);
}

function keep(images: readonly Image[]): ImageInput[] {
  return images.map((image) => ({ id: image.id }));
}

function requireKnown(productId: string, current: readonly Image[], ids: readonly string[]): void {
  const known = new Set(current.map((image) => image.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    const has =
      current.length === 0
        ? 'it has no images'
        : `its images are ${current.map((image) => image.id).join(', ')}`;
    throw new UsageError(`${productId} has no image ${unknown.join(', ')}; ${has}`);
  }
}
