/**
 * Where a guided `orders fulfill` stopped after sending, without --save, leaves the orders it
 * did not ship: a shipments file under the config dir, named by the time of the stop, that
 * `orders fulfill --file` finishes.
 */
import { join } from 'node:path';
import { makeDirectory } from './directory.js';

/** A fresh path for the leftover shipments (its folder made, owner only). */
export function leftoverShipmentsPath(configDir: string, now: number): string {
  const dir = join(configDir, 'shipments');
  makeDirectory(dir);
  const stamp = new Date(now)
    .toISOString()
    .replaceAll(':', '')
    .replace(/\.\d+Z$/, 'Z');
  return join(dir, `rest-${stamp}.csv`);
}
