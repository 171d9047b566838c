/** The product kinds the seed makes, with dense option matrices on several of them. */

/** A kind of product the seed makes: its options, price range and SKU style. */
export interface Template {
  code: string;
  name: string;
  category: string;
  options: [string, string[]][];
  price: [number, number];
  grams: [number, number];
  tags: string[];
  /** How the SKU is written; a few carry `/` or a space so URL encoding gets exercised. */
  skuStyle?: 'slash' | 'space';
}

/** The product kinds, used in turn. */
export const TEMPLATES: Template[] = [
  {
    code: 'TEE',
    name: 'Cotton T-Shirt',
    category: 'Clothing > Men > T-Shirts',
    options: [
      ['Size', ['S', 'M', 'L', 'XL']],
      ['Color', ['Black', 'White', 'Navy']],
    ],
    price: [14, 29],
    grams: [140, 220],
    tags: ['apparel', 'cotton'],
  },
  {
    code: 'MUG',
    name: 'Ceramic Mug',
    category: 'Home & Kitchen > Kitchen & Dining > Drinkware',
    options: [
      ['Size', ['11oz', '15oz']],
      ['Color', ['White', 'Black']],
    ],
    price: [9, 18],
    grams: [300, 420],
    tags: ['kitchen', 'gift'],
    skuStyle: 'slash',
  },
  {
    code: 'BTL',
    name: 'Insulated Water Bottle',
    category: 'Home & Kitchen > Kitchen & Dining > Drinkware',
    options: [],
    price: [19, 34],
    grams: [350, 450],
    tags: ['outdoor', 'kitchen'],
  },
  {
    code: 'CANDLE',
    name: 'Soy Wax Candle',
    category: 'Home & Kitchen > Home Decor > Candles',
    options: [['Scent', ['Lavender', 'Cedar', 'Citrus']]],
    price: [12, 26],
    grams: [250, 400],
    tags: ['home', 'handmade', 'gift'],
    skuStyle: 'space',
  },
  {
    code: 'MAT',
    name: 'Yoga Mat',
    category: 'Sports & Outdoors > Fitness > Yoga Mats',
    options: [['Color', ['Purple', 'Green', 'Black', 'Blue']]],
    price: [24, 59],
    grams: [900, 1800],
    tags: ['fitness'],
  },
  {
    code: 'TNT',
    name: 'Backpacking Tent',
    category: 'Sports & Outdoors > Camping > Tents',
    options: [['Capacity', ['2-person', '4-person']]],
    price: [149, 329],
    grams: [1400, 3200],
    tags: ['outdoor', 'camping'],
  },
  {
    code: 'CSE',
    name: 'Phone Case',
    category: 'Electronics > Accessories > Phone Cases',
    options: [
      ['Model', ['Model A', 'Model B', 'Model C']],
      ['Color', ['Clear', 'Black']],
    ],
    price: [11, 25],
    grams: [30, 60],
    tags: ['electronics'],
  },
  {
    code: 'KNF',
    name: 'Chef Knife',
    category: 'Home & Kitchen > Kitchen & Dining > Cutlery',
    options: [],
    price: [39, 129],
    grams: [180, 260],
    tags: ['kitchen'],
  },
  {
    code: 'HOD',
    name: 'Pullover Hoodie',
    category: 'Clothing > Men > Hoodies',
    options: [
      ['Size', ['S', 'M', 'L']],
      ['Color', ['Grey', 'Black']],
    ],
    price: [34, 64],
    grams: [450, 700],
    tags: ['apparel'],
  },
  {
    code: 'ART',
    name: 'Botanical Print',
    category: 'Home & Kitchen > Home Decor > Wall Art',
    options: [['Size', ['8x10', '11x14', '16x20']]],
    price: [15, 60],
    grams: [80, 300],
    tags: ['home', 'art'],
  },
  {
    code: 'SLP',
    name: 'Down Sleeping Bag',
    category: 'Sports & Outdoors > Camping > Sleeping Bags',
    options: [],
    price: [119, 289],
    grams: [800, 1500],
    tags: ['outdoor', 'camping'],
  },
  {
    code: 'SKL',
    name: 'Cast Iron Skillet',
    category: 'Home & Kitchen > Kitchen & Dining > Cookware',
    options: [['Size', ['8in', '10in', '12in']]],
    price: [22, 55],
    grams: [1600, 3400],
    tags: ['kitchen'],
  },
  {
    code: 'DRS',
    name: 'Linen Summer Dress',
    category: 'Clothing > Women > Dresses',
    options: [['Size', ['XS', 'S', 'M', 'L']]],
    price: [49, 119],
    grams: [200, 350],
    tags: ['apparel', 'linen'],
  },
  {
    code: 'CHG',
    name: 'USB-C Charger',
    category: 'Electronics > Accessories > Chargers',
    options: [['Wattage', ['20W', '65W']]],
    price: [15, 45],
    grams: [60, 180],
    tags: ['electronics'],
  },
];

/** Brands, used in turn. */
export const BRANDS = ['Northwind', 'Alder & Co', 'Kestrel', 'Fieldcraft', 'Lumen'];
/** Words that vary the titles. */
export const ADJECTIVES = [
  'Classic',
  'Everyday',
  'Premium',
  'Organic',
  'Heritage',
  'Urban',
  'Coastal',
  'Alpine',
];
