/**
 * What a file publish would record for each listing, from reads only, as the live run records
 * it: a product already listed on the account is skipped (listing_exists), a product the store
 * does not hold fails as the service fails it (resource_missing), any other is sent.
 */
import type { ApiClient } from '../../client/client.js';
import { findActiveListing } from '../../client/resources/listings.js';
import { getProduct } from '../../client/resources/products.js';
import { ERROR_CODES } from '../../contract/contract.js';
import { ApiError } from '../../errors.js';
import type { PublishItem } from './publish-file.js';

/** One listing's verdict, as a dry run's report writes it. */
export interface PublishVerdict {
  line: number;
  key: string;
  status: 'would_send' | 'would_skip' | 'would_fail';
  code?: string;
  message?: string;
}

/** Reads in flight at once. */
const READS_AT_ONCE = 8;

export async function publishVerdicts(
  client: ApiClient,
  items: readonly PublishItem[],
): Promise<PublishVerdict[]> {
  // One read per product, however many accounts the file publishes it on.
  const products = new Map<string, Promise<string | undefined>>();
  const missing = (productId: string) => {
    let read = products.get(productId);
    if (!read) {
      read = getProduct(client, productId).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return error.message;
          throw error;
        },
      );
      products.set(productId, read);
    }
    return read;
  };
  const verdict = async (item: PublishItem): Promise<PublishVerdict> => {
    const { product_id: productId, channel_account_id: accountId } = item.input;
    const listing = await findActiveListing(client, productId, accountId);
    if (listing) {
      const message = `already published as ${listing.id}`;
      return {
        line: item.line,
        key: item.key,
        status: 'would_skip',
        code: ERROR_CODES.listingExists,
        message,
      };
    }
    const absent = await missing(productId);
    if (absent !== undefined) {
      return {
        line: item.line,
        key: item.key,
        status: 'would_fail',
        code: ERROR_CODES.resourceMissing,
        message: absent,
      };
    }
    return { line: item.line, key: item.key, status: 'would_send' };
  };
  const verdicts: PublishVerdict[] = [];
  for (let start = 0; start < items.length; start += READS_AT_ONCE) {
    verdicts.push(...(await Promise.all(items.slice(start, start + READS_AT_ONCE).map(verdict))));
  }
  return verdicts;
}
