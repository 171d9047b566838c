/** Reading a request off the wire: its URL, a header, and its body, JSON or refused. */
import { ERROR_CODES, ERROR_TYPES } from '../../contract/contract.js';
import { HttpError } from './errors.js';

/** A request as read off the socket. */
export interface IncomingRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const JSON_MEDIA_TYPE = 'application/json';

/**
 * The URL of a request-target. One that is not a URL at all (`http://[bad/`) becomes a path no
 * route has, so it is answered like any unknown path (401 or 404), never dropped.
 */
export function requestUrl(target: string): URL {
  const base = 'http://emulator.invalid';
  try {
    return new URL(target, base);
  } catch {
    return new URL(`/${encodeURIComponent(target)}`, base);
  }
}

/** The first value of a request header, if any. */
export function header(request: IncomingRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The JSON body of a write; `{}` when there is none. A body declared as anything but
 * `application/json` (parameters such as charset aside) is refused, not guessed at: the
 * reference says bodies are JSON, and a client sending a form or text has a bug to see.
 * A body with no declared type is read as JSON.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== undefined && mediaType !== JSON_MEDIA_TYPE) {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.bodyInvalid,
      `The body is declared ${JSON.stringify(contentType)}; send JSON with "Content-Type: ${JSON_MEDIA_TYPE}".`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.bodyInvalid,
      'The body is not valid JSON.',
    );
  }
  const polluting = prototypeKeyPath(body, '');
  if (polluting !== undefined) {
    throw new HttpError(
      400,
      ERROR_TYPES.invalidRequest,
      ERROR_CODES.parameterInvalid,
      `${polluting}: "${PROTO_KEY}" is not a name this service takes.`,
      { param: polluting },
    );
  }
  return body;
}

const PROTO_KEY = '__proto__';

/**
 * Where a body holds the key `__proto__` (JSON.parse keeps it as an own key; a schema would drop
 * it without a word, and object code would read it as the prototype), or undefined.
 */
function prototypeKeyPath(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = prototypeKeyPath(value[index], `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (key === PROTO_KEY) return at;
    const found = prototypeKeyPath((value as Record<string, unknown>)[key], at);
    if (found !== undefined) return found;
  }
  return undefined;
}
