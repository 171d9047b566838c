/** How channel accounts, policies, categories and attribute schemas are shown. */
import type {
  AttributeSchema,
  Category,
  ChannelAccountSummary,
  Policy,
} from '../../contract/schemas/channel-account.js';
import type { View } from '../view.js';

/** Channel accounts: one row per connected account. */
export const channelAccountsView: View<ChannelAccountSummary> = {
  columns: [
    { header: 'ID', cell: (a) => a.id },
    { header: 'CHANNEL', cell: (a) => a.channel },
    { header: 'LABEL', cell: (a) => a.label ?? '', shrink: true },
    { header: 'SHOP', cell: (a) => a.shop_name ?? '', shrink: true },
    { header: 'STATUS', cell: (a) => a.status ?? '' },
    {
      header: 'DISCOVERY',
      drop: 1,
      shrink: true,
      cell: (a) =>
        Object.entries(a.discovery ?? {})
          .filter(([, on]) => on === true)
          .map(([name]) => name)
          .join(', '),
    },
  ],
  fields: [
    'id',
    'channel',
    'label',
    'shop_name',
    'status',
    'discovery.categories',
    'discovery.attribute_schema',
    'discovery.policies',
  ],
};

/** Policies of one account. */
export const policiesView: View<Policy> = {
  columns: [
    { header: 'ID', cell: (p) => p.id },
    { header: 'TYPE', cell: (p) => p.type ?? '' },
    { header: 'NAME', cell: (p) => p.name ?? '', shrink: true },
  ],
  fields: ['id', 'type', 'name'],
};

/** Channel categories. */
export const categoriesView: View<Category> = {
  columns: [
    { header: 'ID', cell: (c) => c.id },
    { header: 'NAME', cell: (c) => c.name ?? '', shrink: true },
    { header: 'PATH', cell: (c) => c.path ?? '', shrink: true },
    { header: 'LEAF', cell: (c) => (c.leaf ? 'yes' : 'no') },
  ],
  fields: ['id', 'name', 'path', 'parent_id', 'leaf'],
};

type Attribute = AttributeSchema['attributes'][number];

/** The attributes a channel category asks for. */
export const attributesView: View<Attribute> = {
  columns: [
    { header: 'NAME', cell: (a) => a.name },
    { header: 'TYPE', cell: (a) => a.type ?? '' },
    { header: 'REQUIRED', cell: (a) => (a.required ? 'yes' : 'no') },
    { header: 'VALUES', cell: (a) => (a.values ?? []).join(', ') },
  ],
  fields: ['name', 'type', 'required', 'values'],
};
