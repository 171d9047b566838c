/** Channel accounts and their discovery data (categories, attribute schema, policies). */

import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';
import {
  AttributeSchema,
  Category,
  ChannelAccount,
  ChannelAccountSummary,
  Policy,
} from '../schemas/channel-account.js';
import { listOf } from '../schemas/common.js';
import { itemPath } from './paths.js';

/** GET /channel_accounts: one entry per connected account (summary shape, one page). */
export async function listChannelAccounts(client: ApiClient): Promise<ChannelAccountSummary[]> {
  const response = await client.request(
    { method: 'GET', path: '/channel_accounts' },
    listOf(ChannelAccountSummary),
  );
  return response.body.data;
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
