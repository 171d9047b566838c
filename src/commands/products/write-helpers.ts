/** What the product write commands share: reading a body from a file or stdin, summaries. */

import type { Context } from '../../cmdutil/context.js';
import type { OutputFiles } from '../../cmdutil/input-file.js';
import type { Product } from '../../contract/schemas/product.js';
import { plural } from '../../words.js';

/** The path to read: a file, or standard input spooled to a temporary file for `-`; `outputs` may not be it. */
export async function sourcePath(ctx: Context, path: string, outputs?: OutputFiles): Promise<string> {
  const { inputFile } = await import('../../cmdutil/input-file.js');
  return inputFile(ctx, path, outputs);
}

/** Reads a product body from `--file` (or `-`) and warns about fields the CLI does not know. */
export async function readProductBody(
  ctx: Context,
  path: string,
  extra: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const { readBodyFile, unknownFields } = await import('../../core/products/body-file.js');
  const body = await readBodyFile(await sourcePath(ctx, path), path === '-' ? 'standard input' : path);
  const unknown = unknownFields(body, extra);
  if (unknown.length > 0)
    ctx.io.messages.warn(`unknown ${plural(unknown.length, 'field')} ${unknown.join(', ')} sent as given`);
  return body;
}

/** "prod_1 "Blue mug": 4 variants, 2 images". */
export function describeProduct(product: Product): string {
  const variants = product.variants?.length ?? 0;
  const images = product.images?.length ?? 0;
  return `${product.id} ${JSON.stringify(product.title)}: ${variants} ${plural(variants, 'variant')}, ${images} ${plural(images, 'image')}`;
}

/** " (operation op_1: 2 channels pending)" for an update's sync block, or "". */
export function describeSync(product: Product): string {
  const sync = product.sync;
  if (!sync?.operation_id) return '';
  const channels = sync.channels ?? [];
  const byStatus = new Map<string, number>();
  for (const channel of channels) byStatus.set(channel.status, (byStatus.get(channel.status) ?? 0) + 1);
  const parts = [...byStatus].map(([status, count]) => `${count} ${status}`);
  const noun = plural(channels.length, 'channel');
  return ` (operation ${sync.operation_id}: ${channels.length === 0 ? 'no listed channels' : `${noun} ${parts.join(', ')}`})`;
}
