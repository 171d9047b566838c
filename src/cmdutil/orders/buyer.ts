/** What the order commands share: buyer personal data only on request (docs/guide.md, Output), and their fields. */

import type { Order } from '../../contract/schemas/order.js';
import { UsageError } from '../../errors.js';
import type { View } from '../../output/view.js';
import type { Deps } from '../deps.js';
import { schemaFields } from '../fields.js';

/** The field paths of an order, for --fields. */
export const orderFields = schemaFields(async () => (await import('../../contract/schemas/order.js')).Order);

/** The --show-buyer flag's help. */
export const SHOW_BUYER_HELP =
  'show buyer name, email and address in tables, csv and tsv (json always has them)';

/**
 * The orders view for this run. A --fields path naming buyer data without --show-buyer would
 * print empty cells in tables, csv and tsv, so it is refused (exit 2) with the flag that shows it.
 */
export async function orderView(
  deps: Pick<Deps, 'io' | 'globals'>,
  showBuyer: boolean,
  perLine = false,
): Promise<View<Order>> {
  const { isBuyerField, ordersView } = await import('../../output/views/orders.js');
  const named = (deps.globals.fields ?? []).filter(isBuyerField);
  if (!showBuyer && named.length > 0 && !deps.io.wantsMachineText) {
    throw new UsageError(
      `--fields ${named.join(',')} is buyer personal data: add --show-buyer to show it in tables, csv and tsv (json and ndjson carry it as given)`,
    );
  }
  return ordersView(showBuyer, perLine);
}
