/** Request bodies checked with the shared zod schemas, mapped to the contract's 400 answers. */
import type { z } from 'zod';
import { BATCH_MAX_ITEMS, ERROR_CODES, ERROR_TYPES } from '../../contract/contract.js';
import { HttpError } from './errors.js';

/** The path of a zod issue as the contract writes `param`: `items[3].price`. */
function paramPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/**
 * The body parsed by `schema`, or a 400: `body_invalid` when the body is not a JSON object,
 * `parameter_missing` for an absent required field, `parameter_invalid` otherwise.
 */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.bodyInvalid,
      'The body must be a JSON object.',
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = paramPath(issue.path) || undefined;
  const declared = (issue as { params?: { code?: string } }).params?.code;
  const missing =
    declared === ERROR_CODES.parameterMissing ||
    (issue.path.length > 0 && valueAt(body, issue.path) === undefined);
  const code = declared ?? (missing ? ERROR_CODES.parameterMissing : ERROR_CODES.parameterInvalid);
  const message = param ? `${param}: ${issue.message}` : issue.message;
  return throwBadRequest(code, message, param);
}

/**
 * A batch body `{items: [...]}`: over BATCH_MAX_ITEMS items is 400 `batch_too_large`,
 * otherwise as validateBody (a malformed item rejects the whole batch).
 */
export function validateBatch<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const items = (body as { items?: unknown } | null)?.items;
  if (Array.isArray(items) && items.length > BATCH_MAX_ITEMS) {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.batchTooLarge,
      `A batch holds at most ${BATCH_MAX_ITEMS} items; this one has ${items.length}.`,
      { param: 'items' },
    );
  }
  return validateBody(schema, body);
}

function throwBadRequest(code: string, message: string, param: string | undefined): never {
  throw new HttpError(400, ERROR_TYPES.invalidRequest, code, message, { param });
}
