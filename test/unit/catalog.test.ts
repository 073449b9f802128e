import { placeCategories } from '../../subgraphs/catalog/src/domain/product-categories';
import { priceTermsWithin } from '../../subgraphs/catalog/src/domain/publication';
import { productQuery } from '../../subgraphs/catalog/src/domain/product-listing';
import { DOCUMENT_LISTS, product, sku, SKU_HEAD_FIELDS, skuProjection, withinCard } from '../../subgraphs/catalog/src/domain/product-document';
import { linkResolvers } from '../../subgraphs/catalog/src/domain/links';

/** Catalog rules alone, without the system. */

/** A listing's price term, as the migration's SQL function makes it: `p:<digits>:<first two digits>`. */
const termOf = (amount: number) => `p:${String(amount).length}:${String(amount).slice(0, 2)}`;
/** Each bucket's lowest and highest amount below `limit`, found amount by amount. */
const bucketsBelow = (limit: number) => {
  const buckets = new Map<string, [number, number]>();
  for (let amount = 0; amount < limit; amount++) {
    const term = termOf(amount);
    buckets.set(term, [buckets.get(term)?.[0] ?? amount, amount]);
  }
  return buckets;
};

describe('price buckets wholly inside a range', () => {
  it('lists single-digit amounts one by one and longer ones by their first two digits', () => {
    expect(priceTermsWithin(0, 9)).toEqual(['p:1:0', 'p:1:1', 'p:1:2', 'p:1:3', 'p:1:4', 'p:1:5', 'p:1:6', 'p:1:7', 'p:1:8', 'p:1:9']);
    expect(priceTermsWithin(3, 5)).toEqual(['p:1:3', 'p:1:4', 'p:1:5']);
    expect(priceTermsWithin(1000, 1299)).toEqual(['p:4:10', 'p:4:11', 'p:4:12']);
    expect(priceTermsWithin(1599, 24999)).toEqual([
      ...Array.from({ length: 99 - 16 + 1 }, (_, i) => `p:4:${16 + i}`),
      ...Array.from({ length: 24 - 10 + 1 }, (_, i) => `p:5:${10 + i}`),
    ]);
  });

  it('leaves out a bucket reaching outside the range, so counts are a lower bound', () => {
    expect(priceTermsWithin(1001, 1099)).toEqual([]);
    expect(priceTermsWithin(1000, 1098)).toEqual([]);
    expect(priceTermsWithin(1000, 1099)).toEqual(['p:4:10']);
    expect(priceTermsWithin(7, 7)).toEqual(['p:1:7']);
    expect(priceTermsWithin(10, 10)).toEqual(['p:2:10']);
    expect(priceTermsWithin(100, 100)).toEqual([]);
    expect(priceTermsWithin(100, 109)).toEqual(['p:3:10']);
    expect(priceTermsWithin(5, 4)).toEqual([]);
  });

  it('equals, for every range of amounts below 1,000, the buckets whose every amount is in it', () => {
    const buckets = bucketsBelow(1000);
    const within = (min: number, max: number) =>
      [...buckets]
        .filter(([, [lo, hi]]) => lo >= min && hi <= max)
        .map(([term]) => term)
        .sort();
    const wrong: unknown[] = [];
    let ranges = 0;
    for (let min = 0; min < 1000; min += 7) {
      for (let max = min; max < 1000; max += 13) {
        // Buckets of 4 digits or more are never wholly inside a range ending below 1000.
        const expected = within(min, max).join();
        const got = [...priceTermsWithin(min, max)].sort().join();
        if (got !== expected) wrong.push({ min, max, got, expected });
        ranges++;
      }
    }
    expect(wrong).toEqual([]);
    expect(ranges).toBeGreaterThan(5000);
  });

  it('handles the largest amounts without a bucket past them', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const terms = priceTermsWithin(10 ** 15, max);
    expect(terms).toContain('p:16:10');
    expect(terms).toContain('p:16:89');
    // 9007199254740991 is inside the p:16:90 bucket, which reaches 9099999999999999.
    expect(terms).not.toContain('p:16:90');
    expect(terms).toHaveLength(80);
  });
});

describe('product categories', () => {
  it('makes the first category primary when none is marked', () => {
    expect(placeCategories([{ category_id: 'cat_a' }, { category_id: 'cat_b', is_primary: false }])).toEqual([
      { category_id: 'cat_a', is_primary: true },
      { category_id: 'cat_b', is_primary: false },
    ]);
    expect(placeCategories([])).toEqual([]);
  });

  it('keeps the one marked primary, the others not', () => {
    expect(placeCategories([{ category_id: 'cat_a' }, { category_id: 'cat_b', is_primary: true }, { category_id: 'cat_c' }])).toEqual([
      { category_id: 'cat_a', is_primary: false },
      { category_id: 'cat_b', is_primary: true },
      { category_id: 'cat_c', is_primary: false },
    ]);
  });

  it('refuses two primaries and a category listed twice', () => {
    expect(() =>
      placeCategories([
        { category_id: 'cat_a', is_primary: true },
        { category_id: 'cat_b', is_primary: true },
      ]),
    ).toThrow(expect.objectContaining({ kind: 'validation_failed', message: 'categories may have one primary category at most' }));
    expect(() => placeCategories([{ category_id: 'cat_a' }, { category_id: 'cat_a', is_primary: true }])).toThrow(
      expect.objectContaining({ kind: 'validation_failed', message: 'categories lists a category twice' }),
    );
  });
});

describe('a product page kept prepared', () => {
  const store = { store_id: 'sto_1', tenant_id: 'ten_1' };
  const sharedOf = (input: Parameters<typeof productQuery>[1]) => productQuery(store, input, 'feed').page.name !== undefined;

  it('is a store’s whole listing in some status, sort and projection, whatever the page', () => {
    expect(sharedOf({ store: 'sto_1' })).toBe(true);
    expect(sharedOf({ store: 'sto_1', status: 'active', sort: 'price_asc', limit: 100, page: 7 })).toBe(true);
    // Past the first pages, page and limit are values, not text: every such page of a shape is the one statement.
    const deep = productQuery(store, { store: 'sto_1', page: 21 }, 'feed').page;
    expect(deep.text).toBe(productQuery(store, { store: 'sto_1', page: 29, limit: 60 }, 'feed').page.text);
    expect(deep.text).toMatch(/LIMIT \$3 OFFSET \$4/);
    expect(deep.values).toEqual(['sto_1', 'ten_1', 24, 480]);
  });

  it('has its window written in on the first pages, so that PostgreSQL keeps one plan for it', () => {
    const second = productQuery(store, { store: 'sto_1', page: 2, limit: 30 }, 'feed').page;
    expect(second.text).toMatch(/LIMIT 30 OFFSET 30\)/);
    expect(second.values).toEqual(['sto_1', 'ten_1']);
    expect(second.name).toBeDefined();
    expect(productQuery(store, { store: 'sto_1', page: 2, limit: 30 }, 'feed').page.name).toBe(second.name);
  });

  it('is not a filtered page, whose text and selectivity vary (planned for its values each time)', () => {
    expect(sharedOf({ store: 'sto_1', category: 'cat_1' })).toBe(false);
    expect(sharedOf({ store: 'sto_1', options: [{ name: 'color', value: 'red' }] })).toBe(false);
    expect(sharedOf({ store: 'sto_1', price_min: 100 })).toBe(false);
    expect(sharedOf({ store: 'sto_1', collection: 'summer' })).toBe(false);
  });

  // Spends the process's budget of windowed texts: the last test of this file to ask for a whole listing's page.
  it('writes the window in for at most 64 texts, then pages run with it as values (the statements each connection keeps stay bounded)', () => {
    const first = (limit: number) => productQuery(store, { store: 'sto_1', sort: 'title_asc', limit }, 'full').page;
    const texts = Array.from({ length: 100 }, (_, i) => first(i + 1));
    const windowed = texts.filter((page) => page.values.length === 2);
    expect(windowed.length).toBeGreaterThan(0);
    expect(windowed.length).toBeLessThanOrEqual(64);
    const rest = texts.filter((page) => page.values.length === 4);
    expect(rest.length).toBe(100 - windowed.length);
    expect(new Set(rest.map((page) => page.name)).size).toBe(1);
  });
});

describe('a SKU head narrowed to a selection', () => {
  const links = linkResolvers({ dataSource: null as never });

  it('holds every field of the Sku entity that is neither a list nor a link (a new field cannot read null unseen)', () => {
    const fields = Object.keys(sku.properties);
    const elsewhere = new Set<string>([...DOCUMENT_LISTS.Sku, ...Object.keys(links.Sku)]);
    expect(fields.filter((name) => !SKU_HEAD_FIELDS.has(name) && !elsewhere.has(name))).toEqual([]);
  });

  it('reads what is asked and its key, a promotional price from its amounts, and the product card likewise', () => {
    const { doc, product: card } = skuProjection(new Set(['code', 'promotional_price', 'product']), new Set(['title']));
    expect(doc).toBe("json_build_object('code', s.code, 'amount', s.amount, 'promotional_amount', s.promotional_amount, 'sku_id', s.id)");
    expect(card).toBe("json_build_object('product_id', p.id, 'title', p.title)");
    expect(skuProjection(new Set(['code']), null).product).toBeNull();
  });

  it('takes a product selection as a card only when the card holds every field of it', () => {
    expect(withinCard(new Set(['__typename', 'id', 'title', 'handle', 'price_min', 'updated_at']))).toBe(true);
    expect(withinCard(new Set(['title', 'description']))).toBe(false);
    // The card's fields are the product's own.
    const card = ['product_id', 'title', 'handle', 'status', 'brand_id', 'price_min', 'price_max', 'created_at', 'updated_at'];
    expect(card.filter((name) => !Object.hasOwn(product.properties, name))).toEqual([]);
  });
});
