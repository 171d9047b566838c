/** Uploaded image files, usable in a product's images. */
import { z } from 'zod';

/** A hosted file. */
export const File = z.looseObject({
  id: z.string(),
  object: z.string().nullish(),
  url: z.string(),
});
export type File = z.infer<typeof File>;

/**
 * Base64 text as the service reads it: the standard alphabet with its padding, white space and a
 * `data:…;base64,` prefix tolerated. The emulator checks it (400 when it is not); this is for the document.
 */
const BASE64_TEXT_PATTERN = '^(data:[^,]*;base64,)?[A-Za-z0-9+/\\s]*(=\\s*){0,2}$';

/** Base64 data of an image (see BASE64_TEXT_PATTERN). */
export const Base64Text = z.string().min(1).meta({ pattern: BASE64_TEXT_PATTERN, contentEncoding: 'base64' });

/** The body of POST /files: the image as base64, and optionally its name. */
export const FileInput = z.object({
  base64: Base64Text,
  filename: z.string().min(1).optional(),
});
export type FileInput = z.infer<typeof FileInput>;
