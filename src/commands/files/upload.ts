import { basename } from 'node:path';
import { uploadFile } from '../../client/resources/files.js';
import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';
import { File } from '../../contract/schemas/file.js';
import { readLocalImage } from '../../core/products/images.js';
import { uploadedText } from '../../output/views/files.js';

/** `svc files upload PATH`. */
export const command = defineCommand<{ path: string }>({
  path: ['files', 'upload'],
  rank: 1,
  description: 'upload a JPEG, PNG or WebP image (up to 10 MB) and print its id and url',
  args: [{ name: 'path', description: 'the image file; its type is judged by content, not by name' }],
  fields: schemaFields(async () => File),
  notes: ["The url can go into a product's images (svc products images add does both steps)."],
  examples: ['svc files upload front.jpg', 'svc files upload front.jpg --json | jq -r .url'],
  /** Checks the image locally, uploads it, and prints the hosted file. */
  async run({ path }, deps) {
    const image = await readLocalImage(path);
    const file = await uploadFile(
      await deps.client(),
      { base64: image.bytes.toString('base64'), filename: basename(path) },
      deps.signal,
    );
    await deps.io.printer.item(file, { summary: (uploaded) => uploadedText(image, uploaded) });
  },
});
