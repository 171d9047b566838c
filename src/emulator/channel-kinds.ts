/**
 * What differs between channel kinds: their own order statuses, id and URL formats, and
 * the rules their listings break. Seed data uses it now; the channel simulation will too.
 */
import type { Rng } from './rng.js';

/** One channel kind's vocabulary and formats. */
export interface ChannelKind {
  kind: string;
  /** The channel's own order status for each normalized status. */
  sourceStatus: Record<string, string>;
  orderIdOnChannel(rng: Rng, sequence: number): string;
  orderUrl(shop: string, orderId: string): string;
  listingIdOnChannel(rng: Rng): string;
  listingUrl(site: string, idOnChannel: string): string;
  /** The issue a failing listing on this kind most often carries. */
  typicalIssue:
    | 'photo_required_for_channel'
    | 'missing_required_attribute'
    | 'title_too_long'
    | 'category_invalid';
}

/** Every channel kind the emulator knows. */
const CHANNEL_KIND_PROFILES: Record<string, ChannelKind> = {
  amazon: {
    kind: 'amazon',
    sourceStatus: {
      awaiting_payment: 'Pending',
      awaiting_shipment: 'Unshipped',
      shipped: 'Shipped',
      canceled: 'Canceled',
      refunded: 'Refunded',
      partially_refunded: 'PartiallyRefunded',
    },
    orderIdOnChannel: (rng) => `${rng.digits(3)}-${rng.digits(7)}-${rng.digits(7)}`,
    orderUrl: (_shop, id) => `https://sellercentral.amazon.com/orders-v3/order/${id}`,
    listingIdOnChannel: (rng) => `B0${rng.token(8).toUpperCase()}`,
    listingUrl: (_site, id) => `https://www.amazon.com/dp/${id}`,
    typicalIssue: 'missing_required_attribute',
  },
  ebay: {
    kind: 'ebay',
    sourceStatus: {
      awaiting_payment: 'PAYMENT_PENDING',
      awaiting_shipment: 'NOT_STARTED',
      shipped: 'FULFILLED',
      canceled: 'CANCELLED',
      refunded: 'FULLY_REFUNDED',
      partially_refunded: 'PARTIALLY_REFUNDED',
    },
    orderIdOnChannel: (rng) => `${rng.digits(2)}-${rng.digits(5)}-${rng.digits(5)}`,
    orderUrl: (_shop, id) => `https://www.ebay.com/sh/ord/details?orderid=${id}`,
    listingIdOnChannel: (rng) => `${rng.int(1, 3)}${rng.digits(11)}`,
    listingUrl: (site, id) => `https://www.ebay.${site === 'UK' ? 'co.uk' : 'com'}/itm/${id}`,
    typicalIssue: 'missing_required_attribute',
  },
  etsy: {
    kind: 'etsy',
    sourceStatus: {
      awaiting_payment: 'unpaid',
      awaiting_shipment: 'paid',
      shipped: 'completed',
      canceled: 'canceled',
      refunded: 'fully refunded',
      partially_refunded: 'partially refunded',
    },
    orderIdOnChannel: (rng) => `${rng.int(1, 3)}${rng.digits(9)}`,
    orderUrl: (_shop, id) => `https://www.etsy.com/your/orders/sold?order_id=${id}`,
    listingIdOnChannel: (rng) => `${rng.int(1, 9)}${rng.digits(9)}`,
    listingUrl: (_site, id) => `https://www.etsy.com/listing/${id}`,
    typicalIssue: 'photo_required_for_channel',
  },
  shopify: {
    kind: 'shopify',
    sourceStatus: {
      awaiting_payment: 'pending',
      awaiting_shipment: 'paid',
      shipped: 'fulfilled',
      canceled: 'cancelled',
      refunded: 'refunded',
      partially_refunded: 'partially_refunded',
    },
    orderIdOnChannel: (_rng, sequence) => `#${1001 + sequence}`,
    orderUrl: (shop, id) => `https://admin.shopify.com/store/${shop}/orders/${id.replace('#', '')}`,
    listingIdOnChannel: (rng) => `gid://shopify/Product/${rng.int(1, 9)}${rng.digits(12)}`,
    listingUrl: (_site, id) => `https://northwind-goods.myshopify.com/products/${id.split('/').pop()}`,
    typicalIssue: 'category_invalid',
  },
  walmart: {
    kind: 'walmart',
    sourceStatus: {
      awaiting_payment: 'Created',
      awaiting_shipment: 'Acknowledged',
      shipped: 'Shipped',
      canceled: 'Cancelled',
      refunded: 'Refunded',
      partially_refunded: 'Partially Refunded',
    },
    orderIdOnChannel: (rng) => `${rng.int(1, 9)}${rng.digits(12)}`,
    orderUrl: (_shop, id) => `https://seller.walmart.com/orders/manage-orders?orderGroups=All&poNumber=${id}`,
    listingIdOnChannel: (rng) => `${rng.int(1, 9)}${rng.digits(8)}`,
    listingUrl: (_site, id) => `https://www.walmart.com/ip/${id}`,
    typicalIssue: 'title_too_long',
  },
};

/** The profile of a kind, falling back to a generic one for kinds the emulator does not know. */
export function channelKind(kind: string): ChannelKind {
  return CHANNEL_KIND_PROFILES[kind] ?? CHANNEL_KIND_PROFILES.shopify;
}
