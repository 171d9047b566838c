/** Channel accounts and their discovery data: policies, categories, attribute schemas. */

import type { ChannelAccountRecord } from '../../model.js';
import type { Store } from '../../store/store.js';
import { notFound } from '../errors.js';
import { listAll, paginate, parsePage, stringParam } from '../pagination.js';
import type { Handler } from '../router.js';

function accountOr404(store: Store, id: string): ChannelAccountRecord {
  const account = store.accounts.get(id);
  if (!account) throw notFound(`No such channel account: ${id}.`, 'id');
  return account;
}

/** GET /channel_accounts: the summary shape, one entry per connected account. */
export const listChannelAccounts: Handler = (store) => {
  const summaries = [...store.accounts.values()].map(
    ({ id, object, channel, label, shop_name, status, discovery }) => ({
      id,
      object,
      channel,
      label,
      shop_name,
      status,
      discovery,
    }),
  );
  return { status: 200, body: listAll(summaries) };
};

/** GET /channel_accounts/{id}: the full record. */
export const getChannelAccount: Handler = (store, request) => ({
  status: 200,
  body: accountOr404(store, request.params.id),
});

/** GET /channel_accounts/{id}/policies. */
export const listPolicies: Handler = (store, request) => {
  const account = accountOr404(store, request.params.id);
  return { status: 200, body: listAll(store.policies.get(account.id) ?? []) };
};

/** GET /channel_accounts/{id}/categories: search by `query`, browse by `parent_id`, paged by path. */
export const listCategories: Handler = (store, request) => {
  const account = accountOr404(store, request.params.id);
  const page = parsePage(request);
  const query = stringParam(request.query, 'query')?.toLowerCase();
  const parentId = stringParam(request.query, 'parent_id');
  const categories = store.taxonomies.get(account.id)?.categories ?? [];
  const envelope = paginate(
    categories,
    { key: (category) => category.path, direction: 'asc' },
    page,
    (category) => {
      if (parentId !== undefined && category.parent_id !== parentId) return false;
      if (
        query !== undefined &&
        !category.name.toLowerCase().includes(query) &&
        !category.path.toLowerCase().includes(query)
      ) {
        return false;
      }
      return true;
    },
  );
  return { status: 200, body: envelope };
};

/** GET /channel_accounts/{id}/categories/{category_id}/attribute_schema. */
export const getAttributeSchema: Handler = (store, request) => {
  const account = accountOr404(store, request.params.id);
  const categoryId = request.params.category_id;
  const attributes = store.taxonomies.get(account.id)?.schemas.get(categoryId);
  if (!attributes) throw notFound(`No such category on ${account.label}: ${categoryId}.`, 'category_id');
  return { status: 200, body: { object: 'attribute_schema', category_id: categoryId, attributes } };
};
