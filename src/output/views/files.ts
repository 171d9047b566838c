/** How an uploaded file is shown. */

import { humanBytes } from '../../contract/rules/image-type.js';
import type { File } from '../../contract/schemas/file.js';
import type { LocalImage } from '../../core/products/images.js';

/** "Uploaded front.jpg (1.2 MB, image/jpeg) as file_1" and the url on the next line. */
export function uploadedText(image: LocalImage, file: File): string {
  return `Uploaded ${image.path} (${humanBytes(image.bytes.length)}, ${image.type.mime}) as ${file.id}\n${file.url}`;
}
