/** Uploaded image files, usable in a product's images. */
import { z } from 'zod';

/** A hosted file. */
export const File = z.looseObject({
  id: z.string(),
  object: z.string().nullish(),
  url: z.string(),
});
export type File = z.infer<typeof File>;

/** The body of POST /files: the image as base64, and optionally its name. */
export const FileInput = z.object({
  base64: z.string().min(1),
  filename: z.string().min(1).optional(),
});
export type FileInput = z.infer<typeof FileInput>;
