import type { Command } from 'commander';
import type { Context } from '../../cmdutil/context.js';
import { fromArray, printList } from '../../cmdutil/list-command.js';
import type { AttributeSchema } from '../../contract/schemas/channel-account.js';

/** `svc channels schema ID CATEGORY_ID`: the attributes a category asks for. */
export function schemaCommand(parent: Command, ctx: Context, run = runSchema): Command {
  return parent
    .command('schema')
    .description('show the attributes a channel category asks for, required ones first')
    .argument('<id>', 'channel account id (chac_…)')
    .argument('<category-id>', 'category id from `svc channels categories`')
    .addHelpText('after', '\nExample:\n  svc channels schema chac_123 cat_42\n')
    .action(async (id: string, categoryId: string) => run(ctx, id, categoryId));
}

/** Runs `svc channels schema` once its flags are parsed. */
export async function runSchema(ctx: Context, id: string, categoryId: string): Promise<void> {
  const { getAttributeSchema } = await import('../../client/resources/channels.js');
  const schema = await getAttributeSchema(await ctx.client(), id, categoryId);
  if (ctx.io.format === 'json' || ctx.io.format === 'ndjson') {
    await ctx.io.printer.item(schema);
    return;
  }
  const attributes = [...schema.attributes].sort(
    (a, b) => Number(Boolean(b.required)) - Number(Boolean(a.required)),
  );
  await printList(ctx, fromArray(attributes), attributesView, 'attributes');
}

type Attribute = AttributeSchema['attributes'][number];

const attributesView = {
  columns: [
    { header: 'NAME', cell: (a: Attribute) => a.name },
    { header: 'TYPE', cell: (a: Attribute) => a.type ?? '' },
    { header: 'REQUIRED', cell: (a: Attribute) => (a.required ? 'yes' : 'no') },
    { header: 'VALUES', cell: (a: Attribute) => (a.values ?? []).join(', ') },
  ],
  fields: ['name', 'type', 'required', 'values'],
};
