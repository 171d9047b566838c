/** A JSON call to an emulator's API with its live key: what a test reads or sets beside svc. */
import type { RunningEmulator } from '../../src/emulator/index.js';

/** A JSON call to the emulator with the live key. */
export async function api(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests poke into arbitrary JSON answers.
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${emu.url}/rest/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.keys.live}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Every item of a list via the API itself, for comparing with what svc printed. */
export async function crawl(
  emu: RunningEmulator,
  path: string,
  query: Record<string, string> = {},
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${emu.url}/rest/v1${path}?${params}`, {
      headers: { authorization: `Bearer ${emu.keys.live}` },
    });
    const page = (await res.json()) as {
      data: Array<Record<string, unknown>>;
      has_more: boolean;
      next_cursor: string | null;
    };
    items.push(...page.data);
    cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
  } while (cursor);
  return items;
}
