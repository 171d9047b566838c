/** Seeded channel accounts with their policies, category trees and attribute schemas. */
import type {
  AttributeRecord,
  CategoryRecord,
  ChannelAccountRecord,
  PolicyRecord,
  TaxonomyRecord,
} from '../model.js';
import type { SeedContext } from './context.js';

/** An account with the seed-only facts other steps need (site, currency, shop handle). */
export interface SeededAccount {
  account: ChannelAccountRecord;
  site: string;
  currency: string;
  buyerCountries: string[];
  /** Relative share of orders arriving on this account. */
  orderWeight: number;
}

interface AccountSpec {
  channel: string;
  label: string;
  shop: string;
  site: string;
  currency: string;
  buyerCountries: string[];
  orderWeight: number;
  pricing: { mode: string; value: number };
  discovery: { categories: boolean; attribute_schema: boolean; policies: boolean };
  sync: [boolean, boolean, boolean, boolean];
  inventory: { control: boolean; threshold: number };
}

// Two eBay accounts on purpose: a seller with two accounts on one kind has two entries.
const ACCOUNT_SPECS: AccountSpec[] = [
  {
    channel: 'amazon',
    label: 'Amazon US',
    shop: 'Northwind Goods',
    site: 'US',
    currency: 'USD',
    buyerCountries: ['US'],
    orderWeight: 5,
    pricing: { mode: 'percent', value: 12 },
    discovery: { categories: true, attribute_schema: true, policies: true },
    sync: [true, true, false, false],
    inventory: { control: true, threshold: 2 },
  },
  {
    channel: 'ebay',
    label: 'eBay US',
    shop: 'northwind_goods',
    site: 'US',
    currency: 'USD',
    buyerCountries: ['US', 'CA'],
    orderWeight: 3,
    pricing: { mode: 'off', value: 0 },
    discovery: { categories: true, attribute_schema: true, policies: true },
    sync: [true, true, true, false],
    inventory: { control: true, threshold: 0 },
  },
  {
    channel: 'ebay',
    label: 'eBay UK',
    shop: 'northwind_goods_uk',
    site: 'UK',
    currency: 'GBP',
    buyerCountries: ['GB', 'IE'],
    orderWeight: 2,
    pricing: { mode: 'fixed', value: 2.5 },
    discovery: { categories: true, attribute_schema: true, policies: true },
    sync: [true, true, true, false],
    inventory: { control: true, threshold: 1 },
  },
  {
    channel: 'etsy',
    label: 'Etsy',
    shop: 'NorthwindHandmade',
    site: 'US',
    currency: 'USD',
    buyerCountries: ['US', 'DE', 'FR'],
    orderWeight: 2,
    pricing: { mode: 'percent', value: 5 },
    discovery: { categories: true, attribute_schema: true, policies: true },
    sync: [true, true, false, false],
    inventory: { control: false, threshold: 0 },
  },
  {
    channel: 'shopify',
    label: 'Shopify storefront',
    shop: 'northwind-goods',
    site: 'US',
    currency: 'USD',
    buyerCountries: ['US', 'CA', 'GB'],
    orderWeight: 3,
    pricing: { mode: 'off', value: 0 },
    discovery: { categories: false, attribute_schema: false, policies: false },
    sync: [true, true, true, true],
    inventory: { control: true, threshold: 0 },
  },
  {
    channel: 'walmart',
    label: 'Walmart Marketplace',
    shop: 'Northwind Goods LLC',
    site: 'US',
    currency: 'USD',
    buyerCountries: ['US'],
    orderWeight: 1,
    pricing: { mode: 'percent', value: 8 },
    discovery: { categories: true, attribute_schema: true, policies: true },
    sync: [true, false, false, false],
    inventory: { control: true, threshold: 3 },
  },
];

/** The accounts, in list order. */
export function seedAccounts(ctx: SeedContext): SeededAccount[] {
  return ACCOUNT_SPECS.map((spec) => ({
    account: {
      id: ctx.ids.next('chac'),
      object: 'channel_account',
      channel: spec.channel,
      label: spec.label,
      shop_name: spec.shop,
      status: 'connected',
      sync: {
        product_edits: spec.sync[0],
        quantity_from_orders: spec.sync[1],
        quantity_from_channel_edits: spec.sync[2],
        content_from_channel_edits: spec.sync[3],
      },
      pricing: { ...spec.pricing },
      inventory: { ...spec.inventory },
      discovery: { ...spec.discovery },
    },
    site: spec.site,
    currency: spec.currency,
    buyerCountries: spec.buyerCountries,
    orderWeight: spec.orderWeight,
  }));
}

const POLICY_NAMES: Record<string, [string, string][]> = {
  amazon: [
    ['shipping', 'Standard shipping (3-5 days)'],
    ['shipping', 'Prime eligible (1-2 days)'],
    ['return', '30-day returns'],
  ],
  ebay: [
    ['shipping', 'Economy shipping'],
    ['shipping', 'Expedited shipping'],
    ['return', '30 days, buyer pays return'],
    ['payment', 'Immediate payment required'],
  ],
  etsy: [
    ['shipping', 'Handmade: ships in 3-5 business days'],
    ['return', 'Returns and exchanges within 14 days'],
  ],
  walmart: [
    ['shipping', 'Value shipping'],
    ['return', 'Walmart standard returns'],
  ],
};

/** The policies of an account that offers policy discovery. */
export function seedPolicies(ctx: SeedContext, account: ChannelAccountRecord): PolicyRecord[] {
  if (!account.discovery.policies) return [];
  return (POLICY_NAMES[account.channel] ?? []).map(([type, name]) => ({
    id: ctx.ids.next('pol'),
    object: 'policy',
    type,
    name,
  }));
}

// One taxonomy for every kind, with channel-style ids: enough depth for parents, paths and leaves.
const TAXONOMY: [string, [string, string[]][]][] = [
  [
    'Home & Kitchen',
    [
      ['Kitchen & Dining', ['Cookware', 'Drinkware', 'Cutlery']],
      ['Home Decor', ['Candles', 'Wall Art']],
    ],
  ],
  [
    'Clothing',
    [
      ['Men', ['T-Shirts', 'Hoodies']],
      ['Women', ['T-Shirts', 'Dresses']],
    ],
  ],
  [
    'Sports & Outdoors',
    [
      ['Camping', ['Tents', 'Sleeping Bags']],
      ['Fitness', ['Yoga Mats']],
    ],
  ],
  ['Electronics', [['Accessories', ['Phone Cases', 'Chargers']]]],
];

const KIND_ID_BASE: Record<string, number> = { amazon: 1055398, ebay: 11450, etsy: 1100, walmart: 4044 };

/** The category tree of a channel kind; ids depend only on the kind, as channels share taxonomies. */
export function seedTaxonomy(kind: string): TaxonomyRecord {
  const categories: CategoryRecord[] = [];
  const schemas = new Map<string, AttributeRecord[]>();
  let next = KIND_ID_BASE[kind] ?? 5000;
  const add = (name: string, parent: CategoryRecord | null, leaf: boolean): CategoryRecord => {
    next += 7;
    const category: CategoryRecord = {
      id: String(next),
      object: 'category',
      name,
      path: parent ? `${parent.path} > ${name}` : name,
      parent_id: parent ? parent.id : null,
      leaf,
    };
    categories.push(category);
    schemas.set(category.id, leaf ? attributesFor(kind, category.path) : []);
    return category;
  };
  for (const [rootName, children] of TAXONOMY) {
    const root = add(rootName, null, false);
    for (const [childName, leaves] of children) {
      const child = add(childName, root, false);
      for (const leafName of leaves) add(leafName, child, true);
    }
  }
  return { categories, schemas };
}

function attributesFor(kind: string, path: string): AttributeRecord[] {
  const strict = kind === 'amazon' || kind === 'ebay';
  const attributes: AttributeRecord[] = [
    { name: 'brand', type: 'string', required: strict },
    { name: 'barcode', type: 'string', required: strict },
    { name: 'condition', type: 'enum', required: kind === 'ebay', values: ['New', 'Used', 'Refurbished'] },
    { name: 'color', type: 'enum', required: false, values: ['Black', 'White', 'Navy', 'Red', 'Green'] },
  ];
  if (path.startsWith('Clothing')) {
    attributes.push({ name: 'size', type: 'enum', required: true, values: ['XS', 'S', 'M', 'L', 'XL'] });
    attributes.push({ name: 'material', type: 'string', required: kind === 'etsy' });
  }
  if (path.includes('Tents')) attributes.push({ name: 'capacity', type: 'number', required: true });
  if (path.includes('Chargers')) {
    attributes.push({ name: 'wattage', type: 'number', required: true });
    attributes.push({ name: 'usb_pd', type: 'boolean', required: false });
  }
  if (kind === 'etsy') {
    attributes.push({
      name: 'who_made',
      type: 'enum',
      required: true,
      values: ['i_did', 'collective', 'someone_else'],
    });
  }
  return attributes;
}
