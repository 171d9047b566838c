/** POST /files: host an image sent as base64 (10 MB; JPEG, PNG or WebP judged by content). */
import { ERROR_CODES, ERROR_TYPES, FILE_MAX_BYTES } from '../../../contract/contract.js';
import { humanBytes, type ImageType, sniffImageType } from '../../../contract/rules/image-type.js';
import { FileInput } from '../../../contract/schemas/file.js';
import { isoTime } from '../../clock.js';
import type { FileRecord } from '../../model.js';
import { HttpError } from '../errors.js';
import type { Handler } from '../router.js';
import { validateBody } from '../validation.js';

/** Where the emulator says it hosts files and images (never fetched; stable and https). */
export const CDN_BASE = 'https://cdn.emulator.invalid';

/** A decoded, accepted image. */
export interface DecodedImage {
  bytes: Buffer;
  type: ImageType;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The image in a base64 string (a `data:` URL prefix is tolerated), or the contract's error:
 * 400 for text that is not base64, 413 file_too_large over 10 MB, 422 validation_failed for
 * bytes that are not a JPEG, PNG or WebP image. `param` names the field in the request.
 */
export function decodeImage(raw: string, param: string): DecodedImage {
  const text = raw.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (text.length % 4 === 1 || !BASE64.test(text)) {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.parameterInvalid,
      `${param} is not base64 data.`,
      { param },
    );
  }
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > FILE_MAX_BYTES) {
    throw new HttpError(
      413,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.fileTooLarge,
      `The file is ${humanBytes(bytes.length)}; the limit is ${humanBytes(FILE_MAX_BYTES)}.`,
      { param },
    );
  }
  const type = sniffImageType(bytes);
  if (!type) {
    throw new HttpError(
      422,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.validationFailed,
      `${param} is not a JPEG, PNG or WebP image (judged by its content, not its name).`,
      { param },
    );
  }
  return { bytes, type };
}

/** POST /files: 201 File; a test key gets the same answer and nothing is kept. */
export const uploadFile: Handler = (store, request) => {
  const input = validateBody(FileInput, request.body);
  const { bytes, type } = decodeImage(input.base64, 'base64');
  const id = store.ids.next('file');
  const record: FileRecord = {
    id,
    object: 'file',
    url: `${CDN_BASE}/files/${id}.${type.extension}`,
    filename: input.filename ?? null,
    size: bytes.length,
    content_type: type.mime,
    created_at: isoTime(store.now()),
  };
  if (request.key?.mode !== 'test') store.files.set(id, record);
  return { status: 201, body: record };
};
