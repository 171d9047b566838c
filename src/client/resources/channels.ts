/** Channel accounts and their discovery data (categories, attribute schema, policies). */

import {
  AttributeSchema,
  Category,
  ChannelAccount,
  ChannelAccountSummary,
  Policy,
} from '../../contract/schemas/channel-account.js';
import { listOf } from '../../contract/schemas/common.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';
import { itemPath } from './paths.js';

/** One read per client (a run): the filter check and the table's account labels share it. */
const accountsRead = new WeakMap<ApiClient, Promise<ChannelAccountSummary[]>>();

/** GET /channel_accounts: one entry per connected account (summary shape, one page), read once per client. */
export function listChannelAccounts(client: ApiClient): Promise<ChannelAccountSummary[]> {
  let read = accountsRead.get(client);
  if (!read) {
    read = client
      .request({ method: 'GET', path: '/channel_accounts' }, listOf(ChannelAccountSummary))
      .then((response) => response.body.data);
    // A failed read is not kept: the next caller asks again.
    read.catch(() => accountsRead.delete(client));
    accountsRead.set(client, read);
  }
  return read;
}

/** Channel account labels by id, for tables that name accounts instead of showing bare ids. */
export async function accountLabels(client: ApiClient): Promise<Map<string, string>> {
  const accounts = await listChannelAccounts(client);
  return new Map(accounts.filter((a) => a.label).map((a) => [a.id, a.label as string]));
}

/** GET /channel_accounts/{id}. */
export async function getChannelAccount(client: ApiClient, id: string): Promise<ChannelAccount> {
  return (await client.request({ method: 'GET', path: itemPath('/channel_accounts', id) }, ChannelAccount))
    .body;
}

/** GET /channel_accounts/{id}/policies (read-only). */
export async function listPolicies(client: ApiClient, id: string): Promise<Policy[]> {
  const path = `${itemPath('/channel_accounts', id)}/policies`;
  return (await client.request({ method: 'GET', path }, listOf(Policy))).body.data;
}

/** Filters of the category search. */
export interface CategoryFilters {
  query?: string;
  parent_id?: string;
}

/** GET /channel_accounts/{id}/categories, paged. */
export function listCategories(
  client: ApiClient,
  id: string,
  filters: CategoryFilters,
  limit: number | 'all',
): PagedList<Category> {
  return client.list(`${itemPath('/channel_accounts', id)}/categories`, { ...filters }, Category, { limit });
}

/** GET /channel_accounts/{id}/categories/{category_id}/attribute_schema. */
export async function getAttributeSchema(
  client: ApiClient,
  id: string,
  categoryId: string,
): Promise<AttributeSchema> {
  const path = `${itemPath('/channel_accounts', id)}/categories/${encodeURIComponent(categoryId)}/attribute_schema`;
  return (await client.request({ method: 'GET', path }, AttributeSchema)).body;
}
