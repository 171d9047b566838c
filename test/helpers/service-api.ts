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
