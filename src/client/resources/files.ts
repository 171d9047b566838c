/** Uploaded image files, whose url can go into a product's images. */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type { File, FileInput } from '../../contract/schemas/file.js';
import type { ApiClient } from '../client.js';

/**
 * Hosts an image. Repeating after an ambiguous failure at worst hosts the same image twice,
 * and an unused file harms nothing, so the upload is repeatable.
 */
export function uploadFile(client: ApiClient, input: FileInput, signal?: AbortSignal): Promise<File> {
  return client.call(ENDPOINTS.uploadFile, { body: input, signal });
}
