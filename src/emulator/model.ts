/**
 * The records the store keeps, exactly in wire shape so a GET can return them as they are.
 * The shared zod schemas are deliberately loose (clients tolerate what they do not know);
 * these types are the emulator's own strict view of the same resources.
 */

/** An image of a product. */
export interface ImageRecord {
  id: string;
  object: 'image';
  url: string;
  alt: string;
  position: number;
}

/** A variant, identified store-wide by its SKU. */
export interface VariantRecord {
  id: string;
  object: 'variant';
  sku: string;
  title: string;
  price: string;
  msrp: string | null;
  quantity: number;
  barcode: string | null;
  grams: number;
  asin: string | null;
  images: { image_id: string; url: string; position: number }[];
  options: Record<string, string> | null;
}

/** A product without its listing summaries, which are derived from the listings. */
export interface ProductRecord {
  id: string;
  object: 'product';
  title: string;
  description: string;
  brand: string;
  category: string;
  short_description: string;
  vat_rate: number;
  mpn: string;
  weight: { value: string; unit: string };
  dimensions: { length: string; width: string; height: string; unit: string };
  tags: string[];
  currency: string;
  status: string;
  sync_status: string;
  images: ImageRecord[];
  variants: VariantRecord[];
  created_at: string;
  updated_at: string;
}

/** A channel-side problem of a listing. */
export interface IssueRecord {
  code: string;
  severity: string;
  message: string;
  attribute_names: string[];
}

/** A product published on one channel account. */
export interface ListingRecord {
  id: string;
  object: 'listing';
  product_id: string;
  channel_account_id: string;
  channel: string;
  status: string;
  id_on_channel: string | null;
  url_on_channel: string | null;
  site: string;
  overrides: { title?: string; description?: string; category_id?: string; [key: string]: unknown };
  attributes: Record<string, unknown>;
  variants: { variant_id: string; sku: string; id_on_channel: string | null; status: string }[];
  issues: IssueRecord[];
  operation_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A connected account on a sales channel. */
export interface ChannelAccountRecord {
  id: string;
  object: 'channel_account';
  channel: string;
  label: string;
  shop_name: string;
  status: string;
  sync: {
    product_edits: boolean;
    quantity_from_orders: boolean;
    quantity_from_channel_edits: boolean;
    content_from_channel_edits: boolean;
  };
  pricing: { mode: string; value: number };
  inventory: { control: boolean; threshold: number };
  discovery: { categories: boolean; attribute_schema: boolean; policies: boolean };
}

/** A read-only policy of an account. */
export interface PolicyRecord {
  id: string;
  object: 'policy';
  type: string;
  name: string;
}

/** A channel category. */
export interface CategoryRecord {
  id: string;
  object: 'category';
  name: string;
  path: string;
  parent_id: string | null;
  leaf: boolean;
}

/** One attribute of a category's schema. */
export interface AttributeRecord {
  name: string;
  type: string;
  required: boolean;
  values?: string[];
}

/** A channel kind's category tree plus the attribute schema of each of its categories. */
export interface TaxonomyRecord {
  categories: CategoryRecord[];
  schemas: Map<string, AttributeRecord[]>;
}

/** A buyer's ship-to address. */
export interface AddressRecord {
  name: string;
  line1: string;
  line2: string | null;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  phone: string | null;
}

/** An order ingested from a channel. */
export interface OrderRecord {
  id: string;
  object: 'order';
  channel_account_id: string;
  channel: string;
  order_id_on_channel: string;
  order_url: string;
  status: string;
  fulfillment_status: string;
  source_status: string;
  tracking: { number: string; carrier: string; url: string | null } | null;
  currency: string;
  total: string;
  lines: { sku: string; title: string; quantity: number; price: string; product_id: string }[];
  buyer: { name: string; email: string; country: string; address: AddressRecord };
  created_at: string;
  updated_at: string;
}

/** The outcome of an operation on one channel account. */
export interface OperationResultRecord {
  channel_account_id: string;
  listing_id: string | null;
  sku: string | null;
  status: string;
  error: { code: string; message: string } | null;
}

/** The asynchronous propagation of one write. */
export interface OperationRecord {
  id: string;
  object: 'operation';
  type: string;
  status: string;
  resource_type: string;
  resource_id: string;
  results: OperationResultRecord[];
  created_at: string;
  completed_at: string | null;
}

/** An event of the log, with a snapshot of its resource. */
export interface EventRecord {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  store_id: string;
  created_at: string;
  data: { object: unknown };
}

/** A registered webhook receiver. */
export interface WebhookEndpointRecord {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  enabled_events: string[];
  status: string;
  description: string | null;
  created_at: string;
  secret: string;
}

/** An uploaded file. */
export interface FileRecord {
  id: string;
  object: 'file';
  url: string;
  filename: string | null;
  size: number;
  content_type: string;
  created_at: string;
}
