/** Shared helpers of the emulator tests: a started emulator on a manual clock, and HTTP calls. */
import { request } from 'undici';
import { API_PREFIX } from '../../src/contract/contract.js';
import {
  createManualClock,
  type EmulatorOptions,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';

/** A running emulator and the clock that drives it. */
export interface TestEmulator {
  emulator: RunningEmulator;
  clock: ManualClock;
}

/** Start an emulator on an ephemeral port with a manual clock. */
export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const clock = createManualClock();
  const emulator = await startEmulator({ port: 0, clock, ...options });
  return { emulator, clock };
}

/** An HTTP answer with its JSON body parsed. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: tests poke into arbitrary JSON answers.
  body: any;
}

/** Options of one call. */
export interface CallOptions {
  /** API key; null sends no Authorization header. */
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

/** GET shorthand with the live key. */
export function get(emulator: RunningEmulator, path: string, key?: string | null): Promise<Answer> {
  return call(emulator, 'GET', path, { key });
}

/**
 * Every item of a list, page by page, failing on an error answer or a repeated id.
 * `between` runs after each page (to change state mid-crawl).
 */
export async function crawl(
  emulator: RunningEmulator,
  path: string,
  options: { key?: string; limit?: number; between?: (page: number) => void } = {},
  // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
): Promise<any[]> {
  // biome-ignore lint/suspicious/noExplicitAny: list items are arbitrary JSON.
  const items: any[] = [];
  const seen = new Set<string>();
  let cursor: string | null = null;
  let page = 0;
  const separator = path.includes('?') ? '&' : '?';
  do {
    const query = `limit=${options.limit ?? 100}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await call(emulator, 'GET', `${path}${separator}${query}`, { key: options.key });
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

/** True when `items` are in the contract's keyset order: `field` descending, then id descending. */
export function isKeysetOrdered(items: { id: string; [key: string]: unknown }[], field: string): boolean {
  for (let index = 1; index < items.length; index++) {
    const previous = items[index - 1];
    const current = items[index];
    const a = String(previous[field]);
    const b = String(current[field]);
    if (a < b || (a === b && previous.id <= current.id)) return false;
  }
  return true;
}
