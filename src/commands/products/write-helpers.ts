/** What the product write commands share: the key's mode, reading a body from a file or stdin, summaries. */
import type { Product } from '../../api/schemas/product.js';
import type { Context } from '../../cli/context.js';

/** Shared with every write command. */
export { SIMULATED_NOTE, usesLiveKey } from '../../cli/live-key.js';

/** The path to read: a file, or standard input spooled to a temporary file for `-`. */
export async function sourcePath(ctx: Context, path: string): Promise<string> {
  const { inputFile } = await import('../../cli/input-file.js');
  return inputFile(ctx, path);
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
    ctx.messages.warn(`unknown field${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} sent as given`);
  return body;
}

/** "prod_1 "Blue mug": 4 variants, 2 images". */
export function describeProduct(product: Product): string {
  const variants = product.variants?.length ?? 0;
  const images = product.images?.length ?? 0;
  return `${product.id} ${JSON.stringify(product.title)}: ${variants} variant${variants === 1 ? '' : 's'}, ${images} image${images === 1 ? '' : 's'}`;
}

/** " (operation op_1: 2 channels pending)" for an update's sync block, or "". */
export function describeSync(product: Product): string {
  const sync = product.sync;
  if (!sync?.operation_id) return '';
  const channels = sync.channels ?? [];
  const byStatus = new Map<string, number>();
  for (const channel of channels) byStatus.set(channel.status, (byStatus.get(channel.status) ?? 0) + 1);
  const parts = [...byStatus].map(([status, count]) => `${count} ${status}`);
  const noun = channels.length === 1 ? 'channel' : 'channels';
  return ` (operation ${sync.operation_id}: ${channels.length === 0 ? 'no listed channels' : `${noun} ${parts.join(', ')}`})`;
}
