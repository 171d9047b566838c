/**
 * `products upsert --dry-run`: with a key at hand (or --report, which needs one), one read of
 * the catalog (reads only, no write quota) and every product's verdict as the live run would
 * record it; without a key, the file's check alone.
 */
import type { CheckedUpsertFile } from '../../core/products/upsert-file.js';
import { type DryRun, showDryRun } from '../bulk-command.js';
import type { Deps } from '../deps.js';

export async function showUpsertDryRun(
  deps: Pick<Deps, 'io' | 'client' | 'credentials' | 'signal'>,
  file: CheckedUpsertFile,
  dryRun: DryRun,
  report: string | undefined,
): Promise<void> {
  const keyed = report !== undefined || Boolean((await deps.credentials()).apiKey);
  if (!keyed) return showDryRun(deps, dryRun);
  const client = await deps.client();
  const { listProducts } = await import('../../client/resources/products.js');
  const { upsertVerdicts } = await import('../../core/products/dry-verdicts.js');
  const catalog = listProducts(client, {}, 'all', { signal: deps.signal });
  const rows = await upsertVerdicts(file.items, catalog, { live: client.live });
  await showDryRun(deps, { ...dryRun, rows }, report);
}
