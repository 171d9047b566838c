/** The URL of one request: base URL, the API prefix, the path and its query. */

import { API_PREFIX } from '../contract/contract.js';
import { UsageError } from '../errors.js';
import type { QueryValue } from './types.js';

/** `{baseUrl}/rest/v1{path}?query`, tolerant of a trailing slash or a base that already ends in /rest/v1. */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new UsageError(`the base URL must be an http:// or https:// address, got "${baseUrl}"`);
  }
  let base = baseUrl.replace(/\/+$/, '');
  if (!base.endsWith(API_PREFIX)) base += API_PREFIX;
  const url = `${base}${path.startsWith('/') ? path : `/${path}`}`;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const search = params.toString();
  if (search === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${search}`;
}
