import { listCategories } from '../../client/resources/channels.js';
import { defineCommand } from '../../cmdutil/define.js';
import { categoryFields } from '../../cmdutil/fields/channels.js';
import { printList } from '../../cmdutil/list-command.js';
import { idArg } from '../../cmdutil/resource-commands.js';
import { categoriesView } from '../../output/views/channels.js';

/**
 * `svc channels categories ID [--search TEXT] [--parent ID]`. The search is `--search`, not
 * `--query`: that is the global JMESPath over the result, the same in every command.
 */
export const command = defineCommand<{ id: string; search?: string; parent?: string }>({
  path: ['channels', 'categories'],
  rank: 4,
  description: "search a channel account's categories",
  args: [idArg('channel account', 'svc channels list')],
  flags: [
    {
      flags: '--search <text>',
      description: 'words in the category name (sent as the search; --query is JMESPath)',
    },
    { flags: '--parent <id>', description: 'only the children of this category' },
  ],
  takes: { list: true },
  fields: categoryFields,
  examples: [
    'svc channels categories chac_123 --search shoes',
    'svc channels categories chac_123 --parent cat_1',
    "svc channels categories chac_123 --search shoes --query '[].id'",
  ],
  async run({ id, search, parent }, deps) {
    const filters = { query: search, parent_id: parent };
    const categories = listCategories(await deps.client(), id, filters, deps.io.listLimit);
    await printList(deps, categories, categoriesView, 'categories');
  },
});
