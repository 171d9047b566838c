/** Channel accounts and their discovery data (categories, attribute schema, policies). */

import { ENDPOINTS } from '../../contract/endpoints.js';
import type {
  AttributeSchema,
  Category,
  ChannelAccount,
  ChannelAccountSummary,
  Policy,
} from '../../contract/schemas/channel-account.js';
import type { ApiClient } from '../client.js';
import type { PagedList } from '../paginate.js';

/** One read per client (a run): the filter check and the table's account labels share it. */
const accountsRead = new WeakMap<ApiClient, Promise<ChannelAccountSummary[]>>();

/** The connected channel accounts, one entry per account (summary shape, one page), read once per client. */
export function listChannelAccounts(client: ApiClient): Promise<ChannelAccountSummary[]> {
  let read = accountsRead.get(client);
  if (!read) {
    read = client.call(ENDPOINTS.listChannelAccounts);
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

/** One channel account. */
export function getChannelAccount(client: ApiClient, id: string): Promise<ChannelAccount> {
  return client.call(ENDPOINTS.getChannelAccount, { id });
}

/** An account's policies (read-only). */
export function listPolicies(client: ApiClient, id: string): Promise<Policy[]> {
  return client.call(ENDPOINTS.listPolicies, { id });
}

/** Filters of the category search. */
export interface CategoryFilters {
  query?: string;
  parent_id?: string;
}

/** An account's categories, paged. */
export function listCategories(
  client: ApiClient,
  id: string,
  filters: CategoryFilters,
  limit: number | 'all',
): PagedList<Category> {
  return client.call(ENDPOINTS.listCategories, { id, query: filters, limit });
}

/** The attributes a category asks for. */
export function getAttributeSchema(
  client: ApiClient,
  id: string,
  categoryId: string,
): Promise<AttributeSchema> {
  return client.call(ENDPOINTS.getAttributeSchema, { id, category_id: categoryId });
}
