import { present, sqlOf } from '@backoffice/platform';
import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { renderDocuments } from './domain/product-document';
import { publish } from './domain/publication';
import { bumpCatalogVersion } from './domain/storefront-cache';
import type { Category } from './entities';

/**
 * Demo catalogs: `backoffice seed --tenant <id> --products N [--seed S]`, the first-run demo and the
 * benchmark. Deterministic: the same seed gives the same catalog (titles, prices, EANs, categories,
 * options, media, custom fields, promotions); ids are derived from the tenant and the seed, so two
 * tenants seeded alike do not collide and seeding again with the same seed adds nothing.
 *
 * Written in bulk: each batch of products is one transaction of a few multi-row INSERT ... SELECT
 * FROM unnest(...) statements, several batches at once.
 */

export interface SeedOptions {
  tenant_id: string;
  /** Stores the products are published to (the tenant's own). */
  store_ids: string[];
  products: number;
  seed?: number;
  /** Products per transaction. */
  batchSize?: number;
  /** Batches written at once (each on its own connection). */
  concurrency?: number;
  /** Called after each batch with the number of products written so far. */
  onProgress?(done: number, total: number): void;
}

export interface SeedResult {
  products: number;
  skus: number;
  categories: number;
  stores: number;
  seed: number;
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------

/** mulberry32: a small, fast, seedable generator. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const chance = (p: number) => next() < p;
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.min(n, copy.length));
  };
  return { next, int, pick, chance, sample };
}

const mix = (seed: number, i: number) => (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i + 1, 0xc2b2ae35)) >>> 0;

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

interface Department {
  label: string;
  name: string;
  children: { label: string; name: string; leaves: [string, string][]; nouns: string[] }[];
  options: Record<string, readonly string[]>;
  price: [number, number];
  materials: readonly string[];
}

const COLORS = ['black', 'white', 'navy', 'red', 'green', 'grey', 'beige', 'blue', 'olive', 'burgundy'] as const;
const APPAREL_SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'] as const;

const DEPARTMENTS: Department[] = [
  {
    label: 'apparel',
    name: 'Apparel',
    options: { color: COLORS, size: APPAREL_SIZES },
    price: [1500, 18000],
    materials: ['cotton', 'linen', 'merino wool', 'recycled polyester', 'organic cotton', 'silk'],
    children: [
      {
        label: 'tops',
        name: 'Tops',
        leaves: [
          ['tshirts', 'T-shirts'],
          ['shirts', 'Shirts'],
          ['sweaters', 'Sweaters'],
        ],
        nouns: ['T-Shirt', 'Shirt', 'Sweater', 'Polo', 'Hoodie'],
      },
      {
        label: 'bottoms',
        name: 'Bottoms',
        leaves: [
          ['jeans', 'Jeans'],
          ['trousers', 'Trousers'],
          ['shorts', 'Shorts'],
        ],
        nouns: ['Jeans', 'Chinos', 'Trousers', 'Shorts'],
      },
      {
        label: 'outerwear',
        name: 'Outerwear',
        leaves: [
          ['jackets', 'Jackets'],
          ['coats', 'Coats'],
        ],
        nouns: ['Jacket', 'Parka', 'Coat', 'Gilet'],
      },
    ],
  },
  {
    label: 'footwear',
    name: 'Footwear',
    options: { color: COLORS, size: ['38', '39', '40', '41', '42', '43', '44', '45'] },
    price: [3900, 24000],
    materials: ['leather', 'suede', 'canvas', 'mesh', 'recycled knit'],
    children: [
      {
        label: 'sneakers',
        name: 'Sneakers',
        leaves: [
          ['running', 'Running'],
          ['lifestyle', 'Lifestyle'],
        ],
        nouns: ['Runner', 'Sneaker', 'Trainer'],
      },
      {
        label: 'boots',
        name: 'Boots',
        leaves: [
          ['hiking', 'Hiking'],
          ['chelsea', 'Chelsea'],
        ],
        nouns: ['Boot', 'Hiker', 'Chelsea Boot'],
      },
      {
        label: 'sandals',
        name: 'Sandals',
        leaves: [
          ['slides', 'Slides'],
          ['strap', 'Strap sandals'],
        ],
        nouns: ['Sandal', 'Slide'],
      },
    ],
  },
  {
    label: 'home',
    name: 'Home',
    options: { color: COLORS, material: ['oak', 'walnut', 'ash', 'steel', 'ceramic', 'glass'] },
    price: [900, 95000],
    materials: ['oak', 'walnut', 'stoneware', 'linen', 'steel', 'glass'],
    children: [
      {
        label: 'kitchen',
        name: 'Kitchen',
        leaves: [
          ['cookware', 'Cookware'],
          ['tableware', 'Tableware'],
          ['storage', 'Storage'],
        ],
        nouns: ['Pan', 'Bowl', 'Plate Set', 'Jar', 'Kettle'],
      },
      {
        label: 'furniture',
        name: 'Furniture',
        leaves: [
          ['chairs', 'Chairs'],
          ['tables', 'Tables'],
          ['shelving', 'Shelving'],
        ],
        nouns: ['Chair', 'Stool', 'Table', 'Shelf'],
      },
      {
        label: 'textiles',
        name: 'Textiles',
        leaves: [
          ['bedding', 'Bedding'],
          ['towels', 'Towels'],
        ],
        nouns: ['Duvet Cover', 'Towel Set', 'Throw', 'Cushion'],
      },
    ],
  },
  {
    label: 'electronics',
    name: 'Electronics',
    options: { color: ['black', 'white', 'silver', 'graphite', 'blue'], storage: ['64GB', '128GB', '256GB', '512GB'] },
    price: [1900, 149000],
    materials: ['aluminium', 'recycled plastic', 'glass', 'steel'],
    children: [
      {
        label: 'audio',
        name: 'Audio',
        leaves: [
          ['headphones', 'Headphones'],
          ['speakers', 'Speakers'],
        ],
        nouns: ['Headphones', 'Earbuds', 'Speaker', 'Soundbar'],
      },
      {
        label: 'computing',
        name: 'Computing',
        leaves: [
          ['laptops', 'Laptops'],
          ['tablets', 'Tablets'],
          ['accessories', 'Accessories'],
        ],
        nouns: ['Laptop', 'Tablet', 'Keyboard', 'Mouse', 'Dock'],
      },
      {
        label: 'phones',
        name: 'Phones',
        leaves: [
          ['smartphones', 'Smartphones'],
          ['cases', 'Cases'],
        ],
        nouns: ['Phone', 'Phone Case', 'Charger'],
      },
    ],
  },
  {
    label: 'outdoor',
    name: 'Outdoor',
    options: { color: ['orange', 'green', 'black', 'blue', 'yellow'], size: ['S', 'M', 'L'] },
    price: [1200, 64000],
    materials: ['ripstop nylon', 'aluminium', 'down', 'merino wool', 'polyester'],
    children: [
      {
        label: 'camping',
        name: 'Camping',
        leaves: [
          ['tents', 'Tents'],
          ['sleeping', 'Sleeping bags'],
          ['cooking', 'Camp cooking'],
        ],
        nouns: ['Tent', 'Sleeping Bag', 'Stove', 'Lantern'],
      },
      {
        label: 'cycling',
        name: 'Cycling',
        leaves: [
          ['helmets', 'Helmets'],
          ['lights', 'Bike lights'],
        ],
        nouns: ['Helmet', 'Bike Light', 'Saddle Bag'],
      },
    ],
  },
];

const ADJECTIVES = [
  'Classic',
  'Essential',
  'Everyday',
  'Heritage',
  'Lightweight',
  'Premium',
  'Relaxed',
  'Slim',
  'Urban',
  'Vintage',
  'Eco',
  'Pro',
  'Compact',
  'Signature',
  'Studio',
  'Nordic',
  'Coastal',
  'Alpine',
];
const BRANDS = [
  'Northwind',
  'Fjordline',
  'Atelier Mono',
  'Kestrel',
  'Oakhaven',
  'Lumen & Co',
  'Bluepeak',
  'Copperleaf',
  'Verdant',
  'Solstice',
  'Ironbark',
  'Maris',
  'Tidewater',
  'Quill',
  'Ember',
  'Halcyon',
];
const COLLECTIONS: [string, string][] = [
  ['new-arrivals', 'New arrivals'],
  ['bestsellers', 'Bestsellers'],
  ['summer-sale', 'Summer sale'],
  ['gift-ideas', 'Gift ideas'],
  ['sustainable', 'Sustainable picks'],
  ['staff-picks', 'Staff picks'],
];
const ORIGINS = ['Portugal', 'Italy', 'Vietnam', 'Germany', 'Japan', 'Denmark', 'Mexico', 'Brazil', 'Turkey', 'India'];
const CARE = [
  'Machine wash cold with similar colours; tumble dry low; do not bleach; iron on low heat if needed.',
  'Wipe clean with a damp cloth; avoid abrasive cleaners; dry thoroughly before storing.',
  'Hand wash only; dry flat in the shade; store folded in a breathable bag.',
  'Keep away from direct heat; clean with a soft brush; re-proof the surface every season.',
];
const PARAGRAPHS = [
  'Designed in our studio and refined over several seasons of testing, it balances a clean silhouette with the ' +
    'details that make it last: reinforced seams, carefully chosen hardware and finishes that age gracefully rather ' +
    'than wear out.',
  'We work with a small number of long-standing partner workshops that share our standards on working conditions ' +
    'and materials. Every batch is inspected by hand before it leaves the workshop, and again when it reaches our ' +
    'warehouse.',
  'The materials were chosen for how they feel on the first day and how they behave on the five-hundredth: they ' +
    'soften with use, resist pilling and keep their shape, so the piece looks as considered after years as it did ' +
    'out of the box.',
  'Proportions were tuned on real people rather than on a drawing board: the fit is generous where you move and ' +
    'precise where it matters, so it layers easily and works from a slow Sunday to a long day on your feet.',
  'Packaging is plastic-free and made from recycled board; the box is sized to the product, which reduces the space it takes in transport and the emissions of getting it to your door.',
  'If anything goes wrong in the first two years, we repair or replace it. Spare parts are available separately ' +
    'for the parts that see the most wear, and our repair guides walk you through the common fixes step by step.',
  'Colours are dyed in small lots with low-impact dyes; slight variations between lots are part of the character of the material and are not a defect.',
  'Tested in the field by our team and a panel of customers across climates and seasons, it earned its place in the range only after it held up to the use it was designed for.',
];
const FAQ: [string, string][] = [
  [
    'How does the sizing run?',
    'True to size for most people. If you are between sizes or prefer a looser fit, take the next size up; the size guide above lists the exact measurements of every size.',
  ],
  [
    'Can I return it if it does not fit?',
    'Yes. Unworn items in their original packaging can be returned within 60 days for a full refund or an exchange; the return label is free and included in the parcel.',
  ],
  [
    'Is it covered by a warranty?',
    'Every product carries our repair guarantee for the period listed in the specifications. Contact us with your order number and a photo, and we will repair or replace it.',
  ],
  [
    'Where is it made?',
    'In one of our partner workshops, audited every year for working conditions and environmental practice. The country of origin is listed in the specifications.',
  ],
  [
    'How should I care for it?',
    'Follow the care instructions above. Gentle cleaning and airing between uses keep the materials in shape for far longer than frequent washing.',
  ],
  [
    'When will it ship?',
    'Orders placed before 2 pm on a working day leave our warehouse the same day. Delivery usually takes two to four working days, tracked from dispatch.',
  ],
];
const SHIPPING =
  'Free standard shipping on orders over $75. Express delivery is available at checkout. Free returns within 60 days: use the prepaid label in your parcel or book a pick-up from your account page.';
const FEATURES = [
  'Reinforced stitching at stress points',
  'Recycled and recyclable packaging',
  'Two-year repair guarantee',
  'Tested for colour fastness',
  'Spare parts available',
  'Responsibly sourced materials',
  'Designed for everyday durability',
  'Lightweight and packable',
  'Water-repellent finish without PFCs',
  'Made in small batches',
];

// ---------------------------------------------------------------------------------------------

/** A seeded category and its place in DEPARTMENTS (-1: above that level). */
type CategoryRow = Pick<Category, 'id' | 'path' | 'name'> & { dept: number; child: number; leaf: number };

function tagOf(tenantId: string, seed: number): string {
  return createHash('sha1').update(`${tenantId}:${seed}`).digest('hex').slice(0, 8);
}

function categoriesOf(tag: string): CategoryRow[] {
  const rows: CategoryRow[] = [];
  let n = 0;
  const id = () => `cat_${tag}_${(n++).toString(36)}`;
  DEPARTMENTS.forEach((d, di) => {
    rows.push({ id: id(), path: d.label, name: d.name, dept: di, child: -1, leaf: -1 });
    d.children.forEach((c, ci) => {
      rows.push({ id: id(), path: `${d.label}.${c.label}`, name: c.name, dept: di, child: ci, leaf: -1 });
      c.leaves.forEach(([label, name], li) => {
        rows.push({ id: id(), path: `${d.label}.${c.label}.${label}`, name, dept: di, child: ci, leaf: li });
      });
    });
  });
  return rows;
}

function ean13(r: ReturnType<typeof generator>): string {
  let digits = '40';
  for (let i = 0; i < 10; i++) digits += r.int(0, 9);
  const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return digits + ((10 - (sum % 10)) % 10);
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const round = (amount: number) => Math.max(99, Math.round(amount / 100) * 100 - 1);

/** Column arrays of one batch, for unnest. */
class Batch {
  product: Record<string, unknown[]> = cols(
    'id',
    'handle',
    'title',
    'description',
    'status',
    'metadata',
    'brand_id',
    'custom_fields',
    'rich',
    'price_min',
    'price_max',
    'created_at',
  );
  sku: Record<string, unknown[]> = cols(
    'id',
    'product_id',
    'code',
    'name',
    'ean',
    'amount',
    'compare_at',
    'promo',
    'currency',
    'is_default',
    'metadata',
    'ref',
    'option_values',
    'position',
  );
  option: Record<string, unknown[]> = cols('id', 'product_id', 'name', 'values', 'default_value', 'position');
  media: Record<string, unknown[]> = cols('id', 'product_id', 'owner_type', 'owner_id', 'provider_key', 'kind', 'url', 'alt', 'position', 'role');
  category: Record<string, unknown[]> = cols('product_id', 'category_id', 'is_primary');
  collection: Record<string, unknown[]> = cols('collection_id', 'product_id', 'position');
}

function cols(...names: string[]): Record<string, unknown[]> {
  return Object.fromEntries(names.map((n) => [n, []]));
}

function push(target: Record<string, unknown[]>, row: Record<string, unknown>) {
  for (const key of Object.keys(target)) target[key].push(row[key] ?? null);
}

const BASE_TIME = Date.UTC(2025, 0, 1);

/** One product (index i of the seed) with its SKUs, options, media, categories and collections. */
function generateProduct(batch: Batch, i: number, seed: number, tag: string, leaves: CategoryRow[], brandIds: string[], collectionIds: string[]) {
  const r = generator(mix(seed, i));
  const leaf = r.pick(leaves);
  const dept = DEPARTMENTS[leaf.dept];
  const child = dept.children[leaf.child];
  const noun = r.pick(child.nouns);
  const material = r.pick(dept.materials);
  const adjective = r.pick(ADJECTIVES);
  const title = `${adjective} ${material.replace(/\b\w/g, (c) => c.toUpperCase())} ${noun}`;
  const productId = `prd_${tag}_${i.toString(36)}`;
  const handle = `${slug(title)}-${i.toString(36)}${seed === 1 ? '' : `-s${seed}`}`;
  const statusRoll = r.next();
  const status = statusRoll < 0.9 ? 'active' : statusRoll < 0.96 ? 'draft' : 'archived';
  const brandId = r.chance(0.85) ? r.pick(brandIds) : null;

  // Options: up to two axes of the department, 1 to 3 values each; SKUs are their combinations.
  const axes = r.sample(Object.keys(dept.options), r.int(0, 2));
  const chosen = axes.map((name) => ({ name, values: r.sample(dept.options[name], r.int(1, 3)) }));
  let combos: Record<string, string>[] = [{}];
  for (const axis of chosen) combos = combos.flatMap((c) => axis.values.map((v) => ({ ...c, [axis.name]: v })));
  combos = combos.slice(0, 6);
  chosen.forEach((axis, position) => {
    push(batch.option, {
      id: `opt_${tag}_${i.toString(36)}_${position}`,
      product_id: productId,
      name: axis.name,
      values: axis.values.join('|'),
      default_value: axis.values[0],
      position,
    });
  });

  const base = round(r.int(dept.price[0], dept.price[1]));
  const onSale = r.chance(0.2);
  const amounts: number[] = [];
  combos.forEach((values, position) => {
    const skuId = `sku_${tag}_${i.toString(36)}_${position}`;
    const amount = round(base * (1 + (position * r.int(0, 8)) / 100));
    amounts.push(amount);
    const code = `${tag.slice(0, 4).toUpperCase()}-${i.toString(36).toUpperCase()}-${position}`;
    const label = Object.values(values).join(' / ');
    push(batch.sku, {
      id: skuId,
      product_id: productId,
      code,
      name: label ? `${title} – ${label}` : title,
      ean: r.chance(0.95) ? ean13(r) : null,
      amount,
      compare_at: r.chance(0.25) ? round(amount * 1.3) : null,
      promo: onSale && r.chance(0.8) ? round(amount * (0.7 + r.int(0, 15) / 100)) : null,
      currency: 'USD',
      is_default: position === 0,
      metadata: JSON.stringify({
        weight_grams: r.int(80, 6000),
        dimensions_cm: { length: r.int(5, 120), width: r.int(5, 80), height: r.int(1, 60) },
        hs_code: `${r.int(6100, 9999)}.${r.int(10, 99)}`,
        origin: r.pick(ORIGINS),
        warehouse_bin: `${String.fromCharCode(65 + r.int(0, 25))}${r.int(1, 40)}-${r.int(1, 12)}`,
        customs_description: `${noun} of ${material}, for retail sale`,
        reorder_point: r.int(2, 40),
        supplier: { name: `${r.pick(BRANDS)} Supply`, lead_time_days: r.int(3, 45) },
      }),
      ref: r.chance(0.5) ? `ERP-${r.int(100000, 999999)}` : null,
      option_values: JSON.stringify(values),
      position,
    });
    // A SKU image for colour variants.
    if (values.color && r.chance(0.7)) {
      const key = `catalog/${tag}/${i.toString(36)}/${position}-${values.color}.jpg`;
      push(batch.media, {
        id: `med_${tag}_${i.toString(36)}_s${position}`,
        product_id: productId,
        owner_type: 'sku',
        owner_id: skuId,
        provider_key: key,
        kind: 'image',
        url: `https://cdn.example.com/${key}`,
        alt: `${title} in ${values.color}`,
        position: 0,
        role: 'variant',
      });
    }
  });

  // Product media: 1 to 4 images, sometimes a video (with a URL) or a spec sheet (without one).
  const images = r.int(1, 4);
  for (let k = 0; k < images; k++) {
    const key = `catalog/${tag}/${i.toString(36)}/${k}.jpg`;
    push(batch.media, {
      id: `med_${tag}_${i.toString(36)}_${k}`,
      product_id: productId,
      owner_type: 'product',
      owner_id: productId,
      provider_key: key,
      kind: 'image',
      url: `https://cdn.example.com/${key}`,
      alt: k === 0 ? title : `${title}, view ${k + 1}`,
      position: k,
      role: k === 0 ? 'primary' : 'gallery',
    });
  }
  if (r.chance(0.1)) {
    push(batch.media, {
      id: `med_${tag}_${i.toString(36)}_v`,
      product_id: productId,
      owner_type: 'product',
      owner_id: productId,
      provider_key: `https://video.example.com/watch/${tag}${i.toString(36)}`,
      kind: 'video_external',
      url: `https://video.example.com/watch/${tag}${i.toString(36)}`,
      alt: `${title} video`,
      position: images,
      role: 'video',
    });
  }
  if (r.chance(0.15)) {
    push(batch.media, {
      id: `med_${tag}_${i.toString(36)}_d`,
      product_id: productId,
      owner_type: 'product',
      owner_id: productId,
      provider_key: `docs/${tag}/${i.toString(36)}/spec-sheet.pdf`,
      kind: 'document',
      url: null,
      alt: `${title} specification sheet`,
      position: images + 1,
      role: 'manual',
    });
  }

  // Categories: the leaf is primary; a third of products also sit in a sibling leaf.
  push(batch.category, { product_id: productId, category_id: leaf.id, is_primary: true });
  if (r.chance(0.33)) {
    const other = r.pick(leaves.filter((l) => l.dept === leaf.dept && l.id !== leaf.id));
    if (other) push(batch.category, { product_id: productId, category_id: other.id, is_primary: false });
  }
  for (const [k, collectionId] of collectionIds.entries()) {
    if (r.chance(k === 2 ? (onSale ? 0.9 : 0) : 0.06)) push(batch.collection, { collection_id: collectionId, product_id: productId, position: i });
  }

  const customFields: Record<string, unknown> = {
    material,
    origin: r.pick(ORIGINS),
    eco_certified: r.chance(0.3),
    season: r.pick(['spring', 'summer', 'autumn', 'winter', 'all-season']),
    warranty_years: r.pick([1, 2, 2, 3, 5]),
  };
  const features = r.sample(FEATURES, 4);
  const paragraphs = r.sample(PARAGRAPHS, 6);
  const faq = r.sample(FAQ, 3);
  const rich = {
    version: 1,
    blocks: [
      { type: 'heading', level: 2, text: `About the ${title}` },
      ...paragraphs.map((text) => ({ type: 'paragraph', text })),
      { type: 'list', style: 'bullet', items: features },
      {
        type: 'table',
        caption: 'Specifications',
        rows: [
          ['Material', material],
          ['Origin', String(customFields.origin)],
          ['Warranty', `${String(customFields.warranty_years)} years`],
          ['Season', String(customFields.season)],
          ['Weight', `${r.int(80, 6000)} g`],
          ['Dimensions', `${r.int(5, 120)} × ${r.int(5, 80)} × ${r.int(1, 60)} cm`],
          ['Certification', customFields.eco_certified ? 'Eco-certified (third-party audited)' : 'None'],
          ['Brand', brandId ?? 'Unbranded'],
        ],
      },
      { type: 'callout', tone: 'info', title: 'Care', text: r.pick(CARE) },
      { type: 'faq', items: faq.map(([question, answer]) => ({ question, answer })) },
      {
        type: 'highlights',
        items: features.map((feature) => ({ title: feature, text: `${feature}: part of what makes the ${title} worth keeping for years.` })),
      },
      { type: 'callout', tone: 'neutral', title: 'Shipping and returns', text: SHIPPING },
    ],
  };
  const promo = onSale ? { badge: 'sale' } : {};
  push(batch.product, {
    id: productId,
    handle,
    title,
    description: `${adjective} ${noun.toLowerCase()} in ${material}, made to last.`,
    status,
    metadata: JSON.stringify({ seo_title: title, ...promo }),
    brand_id: brandId,
    custom_fields: JSON.stringify(customFields),
    rich: JSON.stringify(rich),
    price_min: Math.min(...amounts, Infinity) === Infinity ? null : Math.min(...amounts),
    price_max: amounts.length ? Math.max(...amounts) : null,
    created_at: new Date(BASE_TIME + i * 37_000).toISOString(),
  });
}

/** The batch's statements, in dependency order; run in one transaction. */
async function writeBatch(db: EntityManager, batch: Batch, tenantId: string, storeIds: string[]): Promise<void> {
  const sql = sqlOf(db);
  const p = batch.product;
  await sql.run(
    `INSERT INTO catalog.product (id, tenant_id, handle, title, description, status, metadata, brand_id, custom_fields, rich_content, price_min, price_max, created_at, updated_at)
     SELECT id, $1, handle, title, description, status, metadata::jsonb, brand_id, custom_fields::jsonb, rich::jsonb, price_min, price_max, created_at, created_at
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::timestamptz[])
       AS x(id, handle, title, description, status, metadata, brand_id, custom_fields, rich, price_min, price_max, created_at)
     ON CONFLICT DO NOTHING`,
    [tenantId, p.id, p.handle, p.title, p.description, p.status, p.metadata, p.brand_id, p.custom_fields, p.rich, p.price_min, p.price_max, p.created_at],
  );
  const s = batch.sku;
  await sql.run(
    `INSERT INTO catalog.sku (id, tenant_id, product_id, code, name, ean, amount, compare_at_amount, promotional_amount, currency, ` +
      `is_default, status, metadata, ref, option_values, position, created_at)
     SELECT id, $1, product_id, code, name, ean, amount, compare_at, promo, currency, is_default, 'active', metadata::jsonb, ref, option_values::jsonb, position, now()
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[], $9::bigint[], $10::text[], $11::boolean[], $12::text[], $13::text[], $14::text[], $15::int[])
       AS x(id, product_id, code, name, ean, amount, compare_at, promo, currency, is_default, metadata, ref, option_values, position)
     ON CONFLICT DO NOTHING`,
    [
      tenantId,
      s.id,
      s.product_id,
      s.code,
      s.name,
      s.ean,
      s.amount,
      s.compare_at,
      s.promo,
      s.currency,
      s.is_default,
      s.metadata,
      s.ref,
      s.option_values,
      s.position,
    ],
  );
  const o = batch.option;
  await sql.run(
    `INSERT INTO catalog.option (id, tenant_id, product_id, name, "values", default_value, position)
     SELECT id, $1, product_id, name, string_to_array(vals, '|'), default_value, position
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[]) AS x(id, product_id, name, vals, default_value, position)
     ON CONFLICT DO NOTHING`,
    [tenantId, o.id, o.product_id, o.name, o.values, o.default_value, o.position],
  );
  const m = batch.media;
  await sql.run(
    `INSERT INTO catalog.media (id, tenant_id, product_id, owner_type, owner_id, provider_key, kind, url, alt, position, role)
     SELECT id, $1, product_id, owner_type, owner_id, provider_key, kind, url, alt, position, role
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[], $11::text[])
       AS x(id, product_id, owner_type, owner_id, provider_key, kind, url, alt, position, role)
     ON CONFLICT DO NOTHING`,
    [tenantId, m.id, m.product_id, m.owner_type, m.owner_id, m.provider_key, m.kind, m.url, m.alt, m.position, m.role],
  );
  const c = batch.category;
  await sql.run(
    `INSERT INTO catalog.product_category (product_id, category_id, tenant_id, is_primary)
     SELECT product_id, category_id, $1, is_primary FROM unnest($2::text[], $3::text[], $4::boolean[]) AS x(product_id, category_id, is_primary)
     ON CONFLICT DO NOTHING`,
    [tenantId, c.product_id, c.category_id, c.is_primary],
  );
  const k = batch.collection;
  if (k.product_id.length) {
    await sql.run(
      `INSERT INTO catalog.collection_product (collection_id, product_id, tenant_id, position)
       SELECT collection_id, product_id, $1, position FROM unnest($2::text[], $3::text[], $4::int[]) AS x(collection_id, product_id, position)
       ON CONFLICT DO NOTHING`,
      [tenantId, k.collection_id, k.product_id, k.position],
    );
  }
  // Documents, then listings in every store (with their counts), as commands would leave them.
  await renderDocuments(db, p.id as string[]);
  await publish(db, tenantId, storeIds, p.id as string[]);
}

/** Seeds a tenant's catalog (see the file's comment). The DataSource is the catalog's, migrated. */
export async function seedCatalog(dataSource: DataSource, options: SeedOptions): Promise<SeedResult> {
  const seed = options.seed ?? 1;
  const tag = tagOf(options.tenant_id, seed);
  const tenantId = options.tenant_id;
  const categories = categoriesOf(tag);
  const brandIds = BRANDS.map((_, n) => `brd_${tag}_${n}`);
  const collectionIds = COLLECTIONS.map((_, n) => `col_${tag}_${n}`);
  // Reference data first. Names, paths and handles are unique per tenant: what exists already (an
  // earlier seed, or made by commands) is reused by its own id.
  await dataSource.transaction(async (db) => {
    await sqlOf(db).run(
      `INSERT INTO catalog.brand (id, tenant_id, name) SELECT id, $1, name FROM unnest($2::text[], $3::text[]) AS x(id, name) ON CONFLICT DO NOTHING`,
      [tenantId, brandIds, BRANDS],
    );
    await sqlOf(db).run(
      `INSERT INTO catalog.category (id, tenant_id, path, name)
       SELECT id, $1, path::ltree, name FROM unnest($2::text[], $3::text[], $4::text[]) AS x(id, path, name) ON CONFLICT DO NOTHING`,
      [tenantId, categories.map((c) => c.id), categories.map((c) => c.path), categories.map((c) => c.name)],
    );
    await sqlOf(db).run(
      `INSERT INTO catalog.collection (id, tenant_id, handle, title)
       SELECT id, $1, handle, title FROM unnest($2::text[], $3::text[], $4::text[]) AS x(id, handle, title) ON CONFLICT DO NOTHING`,
      [tenantId, collectionIds, COLLECTIONS.map((c) => c[0]), COLLECTIONS.map((c) => c[1])],
    );
    const ids = async (sql: string, keys: string[]) => {
      const rows = await sqlOf(db).rows<{ id: string; k: string }>(sql, [tenantId, keys]);
      const byKey = new Map(rows.map((r) => [r.k, r.id]));
      return keys.map((k) => present(byKey.get(k), `the seeded row ${k}`));
    };
    const categoryIds = await ids(
      `SELECT id, path::text AS k FROM catalog.category WHERE tenant_id = $1 AND path::text = ANY($2::text[])`,
      categories.map((c) => c.path),
    );
    categories.forEach((c, n) => {
      c.id = categoryIds[n];
    });
    brandIds.splice(0, brandIds.length, ...(await ids(`SELECT id, name AS k FROM catalog.brand WHERE tenant_id = $1 AND name = ANY($2::text[])`, BRANDS)));
    collectionIds.splice(
      0,
      collectionIds.length,
      ...(await ids(
        `SELECT id, handle AS k FROM catalog.collection WHERE tenant_id = $1 AND handle = ANY($2::text[])`,
        COLLECTIONS.map((c) => c[0]),
      )),
    );
  });

  const batchSize = options.batchSize ?? 2000;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const leaves = categories.filter((c) => c.leaf >= 0);
  let next = 0;
  let done = 0;
  let skus = 0;
  const worker = async () => {
    for (;;) {
      const from = next;
      if (from >= options.products) return;
      const to = Math.min(options.products, from + batchSize);
      next = to;
      const batch = new Batch();
      for (let i = from; i < to; i++) generateProduct(batch, i, seed, tag, leaves, brandIds, collectionIds);
      await dataSource.transaction((db) => writeBatch(db, batch, tenantId, options.store_ids));
      skus += batch.sku.id.length;
      done += batch.product.id.length;
      options.onProgress?.(done, options.products);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await dataSource.transaction((db) => bumpCatalogVersion(db, tenantId));
  await sqlOf(dataSource).run(
    `ANALYZE catalog.publication, catalog.product_document, catalog.listing_count, catalog.product, catalog.sku, catalog.media, catalog.product_category`,
  );
  return { products: options.products, skus, categories: categories.length, stores: options.store_ids.length, seed };
}
