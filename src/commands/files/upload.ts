import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';

/** `svc files upload PATH`. */
export function uploadCommand(parent: Command, ctx: Context, run = runUpload): Command {
  return parent
    .command('upload')
    .description('upload a JPEG, PNG or WebP image (up to 10 MB) and print its id and url')
    .argument('<path>', 'the image file; its type is judged by content, not by name')
    .addHelpText(
      'after',
      "\nThe url can go into a product's images (svc products images add does both steps).\n\nExamples:\n  svc files upload front.jpg\n  svc files upload front.jpg --json | jq -r .url\n",
    )
    .action(async (path: string) => run(ctx, path));
}

/** Runs `svc files upload` once its flags are parsed. */
export async function runUpload(ctx: Context, path: string): Promise<void> {
  const { readLocalImage } = await import('../../core/products/images.js');
  const { humanBytes } = await import('../../contract/rules/image-type.js');
  const image = await readLocalImage(path);
  const { uploadFile } = await import('../../client/resources/files.js');
  const { basename } = await import('node:path');
  const file = await uploadFile(
    await ctx.client(),
    { base64: image.bytes.toString('base64'), filename: basename(path) },
    ctx.signal,
  );
  await ctx.io.printer.item(file, {
    summary: (f) =>
      `Uploaded ${path} (${humanBytes(image.bytes.length)}, ${image.type.mime}) as ${f.id}\n${f.url}`,
  });
}
