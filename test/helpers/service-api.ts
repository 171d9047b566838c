/**
 * The tests' one HTTP helper: a call to an emulator's API below /rest/v1, what a test reads or
 * sets beside svc or checks of the emulator itself, and every item of a list page by page.
 */
import { request } from 'undici';
import { API_PREFIX } from '../../src/contract/contract.js';
import type { RunningEmulator } from '../../src/emulator/index.js';

/** An HTTP answer with its JSON body parsed (undefined when it has none). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests poke into arbitrary JSON answers.
  body: any;
}

/** Options of one call. */
export interface CallOptions {
  /** API key; default the live key, null sends no Authorization header. */
  key?: string | null;
  /** JSON body (serialized) or a raw string sent as is. */
  body?: unknown;
  raw?: string;
  /** Content-Type of a body; default `application/json`, null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/** Call the emulator at `path` below /rest/v1. */
export async function call(
  emulator: RunningEmulator,
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? emulator.keys.live : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  const response = await request(`${emulator.url}${API_PREFIX}${path}`, { method, headers, body });
  const text = await response.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return { status: response.statusCode, headers: flat, body: text ? JSON.parse(text) : undefined };
}

/** GET shorthand; the live key unless named, null for none. */
export function get(emulator: RunningEmulator, path: string, key?: string | null): Promise<Answer> {
  return call(emulator, 'GET', path, { key });
}

/** Options of a crawl. */
export interface CrawlOptions {
  /** Filters added to the path's own query. */
  query?: Record<string, string>;
  /** API key; default the live key. */
  key?: string;
  /** Page size; default 100. */
  limit?: number;
  /** Runs after each page (to change state mid-crawl). */
  between?: (page: number) => void;
}

/** Every item of a list, page by page, failing on an error answer, a repeated id or has_more without a cursor. */
export async function crawl(
  emulator: RunningEmulator,
  path: string,
  options: CrawlOptions = {},
  // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
): Promise<any[]> {
  // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
  const items: any[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  let page = 0;
  const separator = path.includes('?') ? '&' : '?';
  do {
    const params = new URLSearchParams({ ...options.query, limit: String(options.limit ?? 100) });
    if (cursor) params.set('cursor', cursor);
    const answer = await call(emulator, 'GET', `${path}${separator}${params}`, { key: options.key });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const item of answer.body.data) {
      if (seen.has(item.id)) throw new Error(`${path}: ${item.id} returned twice`);
      seen.add(item.id);
      items.push(item);
    }
    if (answer.body.has_more && !answer.body.next_cursor)
      throw new Error(`${path}: has_more without a cursor`);
    cursor = answer.body.has_more ? answer.body.next_cursor : null;
    options.between?.(page++);
  } while (cursor);
  return items;
}
