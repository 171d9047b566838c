/** What the product write commands share: reading a body from a file or stdin. */

import { plural } from '../../words.js';
import type { InputDeps, OutputFiles } from '../input-file.js';

/** The path to read: a file, or standard input spooled to a temporary file for `-`; `outputs` may not be it. */
async function sourcePath(deps: InputDeps, path: string, outputs?: OutputFiles): Promise<string> {
  const { inputFile } = await import('../input-file.js');
  return inputFile(deps, path, outputs);
}

/** Reads a product body from `--file` (or `-`) and warns about fields the CLI does not know. */
export async function readProductBody(
  deps: InputDeps,
  path: string,
  extra: readonly string[] = [],
): Promise<Record<string, unknown>> {
  const { readBodyFile, unknownFields } = await import('../../core/products/body-file.js');
  const body = await readBodyFile(await sourcePath(deps, path), path === '-' ? 'standard input' : path);
  const unknown = unknownFields(body, extra);
  if (unknown.length > 0)
    deps.io.messages.warn(`unknown ${plural(unknown.length, 'field')} ${unknown.join(', ')} sent as given`);
  return body;
}
