/** Profiles for tests: a login into a config dir, and what the emulator's seeded store is called. */
import { expect } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { freshConfigDir, runSvc } from './svc.js';

/** Logs in to `emu` with --with-key-stdin into a config dir (a fresh one unless given) and returns that dir. */
export async function loginProfile(
  emu: RunningEmulator,
  key: string,
  profile = 'default',
  dir = freshConfigDir(),
): Promise<string> {
  const result = await runSvc(
    ['auth', 'login', '--with-key-stdin', '--base-url', emu.url, '--profile', profile],
    {
      stdin: `${key}\n`,
      env: { SVC_CONFIG_DIR: dir },
    },
  );
  expect(result.code, result.stderr).toBe(0);
  return dir;
}

/** The emulator's channel accounts: their labels, and their shop names (not the store's name). */
export function accountNames(emu: RunningEmulator): { labels: string[]; shops: string[] } {
  const all = [...emu.store.accounts.values()];
  return {
    labels: all.map((account) => account.label as string),
    shops: all.map((account) => account.shop_name as string),
  };
}

/** The store names the emulator's seeded channel accounts carry, sorted. */
export const SEEDED_STORES = [
  'Northwind Goods',
  'Northwind Goods LLC',
  'NorthwindHandmade',
  'northwind-goods',
  'northwind_goods',
  'northwind_goods_uk',
];

export const SEEDED_ACCOUNTS = [
  'Amazon US',
  'eBay US',
  'eBay UK',
  'Etsy',
  'Shopify storefront',
  'Walmart Marketplace',
];
