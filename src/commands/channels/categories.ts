import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { printList } from '../../cmdutil/list-command.js';
import { categoriesView } from '../../output/views/channels.js';

/** `svc channels categories ID [--query Q] [--parent ID]`. */
export function categoriesCommand(parent: Command, ctx: Context, run = runCategories): Command {
  return parent
    .command('categories')
    .description("search a channel account's categories")
    .argument('<id>', 'channel account id (chac_…)')
    .option('--query <text>', 'words in the category name')
    .option('--parent <id>', 'only the children of this category')
    .addHelpText(
      'after',
      '\nExamples:\n  svc channels categories chac_123 --query shoes\n  svc channels categories chac_123 --parent cat_1\n',
    )
    .action(async (id: string, options: { query?: string; parent?: string }) => run(ctx, id, options));
}

/** Runs `svc channels categories` once its flags are parsed. */
export async function runCategories(
  ctx: Context,
  id: string,
  options: { query?: string; parent?: string },
): Promise<void> {
  const { listCategories } = await import('../../api/resources/channels.js');
  const filters = { query: options.query, parent_id: options.parent };
  await printList(
    ctx,
    listCategories(await ctx.client(), id, filters, ctx.listLimit),
    categoriesView,
    'categories',
  );
}
