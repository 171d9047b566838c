import { getAttributeSchema } from '../../client/resources/channels.js';
import { defineCommand } from '../../cmdutil/define.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import { attributesView } from '../../output/views/channels.js';

/** `svc channels schema ID CATEGORY_ID`: the attributes a category asks for. */
export const command = defineCommand<{ id: string; categoryId: string }>({
  path: ['channels', 'schema'],
  rank: 5,
  description: 'show the attributes a channel category asks for, required ones first',
  args: [
    idArg('channel account', 'svc channels list'),
    { name: 'category-id', description: 'category id from `svc channels categories`' },
  ],
  examples: ['svc channels schema chac_123 cat_42'],
  async run({ id, categoryId }, deps) {
    const schema = await getAttributeSchema(await deps.client(), id, categoryId);
    if (deps.io.format === 'json' || deps.io.format === 'ndjson') {
      await deps.io.printer.item(schema);
      return;
    }
    const attributes = [...schema.attributes].sort(
      (a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)),
    );
    await printList(deps, fromArray(attributes), attributesView, 'attributes');
  },
});
