import { setInventory } from '../../client/resources/inventory.js';
import { defineCommand } from '../../cmdutil/define.js';
import { schemaFields } from '../../cmdutil/fields.js';
import { integerFlag } from '../../cmdutil/parse.js';
import { PRICE_PATTERN, QUANTITY_MAX } from '../../contract/contract.js';
import { InventoryItem } from '../../contract/schemas/inventory.js';
import { ApiError, UsageError } from '../../errors.js';
import { inventoryItemText } from '../../output/views/inventory.js';

/** `svc inventory set SKU [--quantity N] [--price P]`. */
export const command = defineCommand<{ sku: string; quantity?: number; price?: string }>({
  path: ['inventory', 'set'],
  rank: 2,
  description: 'set the quantity and/or price of one SKU',
  args: [{ name: 'sku', description: 'the variant SKU' }],
  flags: [
    {
      flags: '--quantity <n>',
      description: `whole number from 0 to ${QUANTITY_MAX}`,
      parse: integerFlag('--quantity', 0, QUANTITY_MAX),
    },
    { flags: '--price <p>', description: 'decimal such as 12.50' },
  ],
  fields: schemaFields(async () => InventoryItem),
  examples: [
    'svc inventory set TSHIRT-RED-M --quantity 12',
    'svc inventory set TSHIRT-RED-M --price 19.90 --quantity 0',
  ],
  async run({ sku, ...values }, deps) {
    if (values.quantity === undefined && values.price === undefined) {
      throw new UsageError('give --quantity, --price or both, e.g. svc inventory set SKU --quantity 5');
    }
    if (values.price !== undefined && !PRICE_PATTERN.test(values.price)) {
      throw new UsageError(`--price takes a non-negative decimal such as 12.50, got "${values.price}"`);
    }
    try {
      const item = await setInventory(await deps.client(), { sku, ...values });
      await deps.io.printer.item(item, { summary: inventoryItemText });
    } catch (error) {
      // The service's words for an unknown SKU are not pinned; these are, and the 404's advice stays.
      if (error instanceof ApiError && error.status === 404)
        error.message = `SKU ${sku} is not in the catalog`;
      throw error;
    }
  },
});
