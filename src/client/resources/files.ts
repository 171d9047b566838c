/** Uploaded image files, whose url can go into a product's images. */

import { File, type FileInput } from '../../contract/schemas/file.js';
import type { ApiClient } from '../client.js';

/**
 * POST /files. Repeating after an ambiguous failure at worst hosts the same image twice,
 * and an unused file harms nothing, so the upload is repeatable.
 */
export async function uploadFile(client: ApiClient, input: FileInput, signal?: AbortSignal): Promise<File> {
  return (
    await client.request({ method: 'POST', path: '/files', body: input, repeatable: true, signal }, File)
  ).body;
}
