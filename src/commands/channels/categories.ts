import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { categoriesView } from '../../output/views/channels.js';

/** Flags of `svc channels categories`. */
export interface CategoriesOptions {
  search?: string;
  parent?: string;
}

/**
 * `svc channels categories ID [--search TEXT] [--parent ID]`. The search is `--search`, not
 * `--query`: that is the global JMESPath over the result, the same in every command.
 */
export function categoriesCommand(parent: Command, ctx: Context, run = runCategories): Command {
  return parent
    .command('categories')
    .description("search a channel account's categories")
    .argument('<id>', 'channel account id (chac_…)')
    .option('--search <text>', 'words in the category name (sent as the search; --query is JMESPath)')
    .option('--parent <id>', 'only the children of this category')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  svc channels categories chac_123 --search shoes',
        '  svc channels categories chac_123 --parent cat_1',
        "  svc channels categories chac_123 --search shoes --query '[].id'",
        '',
      ].join('\n'),
    )
    .action(async (id: string, options: CategoriesOptions) => run(ctx, id, options));
}

/** Runs `svc channels categories` once its flags are parsed. */
export async function runCategories(ctx: Context, id: string, options: CategoriesOptions): Promise<void> {
  const { listCategories } = await import('../../client/resources/channels.js');
  const filters = { query: options.search, parent_id: options.parent };
  await printList(
    ctx,
    listCategories(await ctx.client(), id, filters, ctx.io.listLimit),
    categoriesView,
    'categories',
  );
}
