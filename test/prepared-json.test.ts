import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { PreparedJson } from '../platform/src/prepared';
import { StorefrontCache } from '../subgraphs/catalog/src/domain/storefront-cache';

/** A page's worth of JSON that compresses about as a page of products does. */
const pageText = () =>
  JSON.stringify({
    items: Array.from({ length: 40 }, (_, i) => ({ product_id: `prd_${randomBytes(8).toString('hex')}`, title: `Mug ${i}`, amount: 1000 + i })),
  });

describe('a prepared answer', () => {
  it('is compressed once per coding, into bytes that decode to the body', () => {
    const page = new PreparedJson(pageText());
    const gzip = page.encoded('gzip');
    const br = page.encoded('br');
    expect(gunzipSync(gzip!).equals(page.body)).toBe(true);
    expect(brotliDecompressSync(br!).equals(page.body)).toBe(true);
    expect(page.encoded('gzip')).toBe(gzip);
    expect(page.size).toBe(page.body.length + gzip!.length + br!.length);
    expect(new PreparedJson('{"items":[]}').encoded('br')).toBeNull(); // below 1 KiB: as it is
  });

  it('tells the cache keeping it each time an encoding adds to its bytes, and is made smaller there', () => {
    const text = pageText();
    const grown: string[] = [];
    const kept = new PreparedJson(text);
    kept.keptBy(() => grown.push('grown'));
    kept.encoded('gzip');
    kept.encoded('gzip');
    kept.encoded('br');
    expect(grown).toEqual(['grown', 'grown']);
    expect(kept.encoded('gzip')!.length).toBeLessThan(new PreparedJson(text).encoded('gzip')!.length);
  });
});

describe("the storefront's page cache", () => {
  it('weighs a kept page again when an encoding is made, dropping the oldest to stay within its bytes', () => {
    const pages = [new PreparedJson(pageText()), new PreparedJson(pageText())];
    const body = pages[0].body.length;
    // Room for both bodies, not for both with their encodings (keys and overhead: 256 bytes and a little each).
    const cache = new StorefrontCache(
      new DataSource({ type: 'postgres' }),
      { maxAge: 30, staleWhileRevalidate: 30, pageCacheBytes: 2 * body + 1200 },
      () => {},
    );
    cache.keep(1, 'a', pages[0]);
    cache.keep(1, 'b', pages[1]);
    expect([cache.page(1, 'a'), cache.page(1, 'b')]).toEqual(pages);
    pages[1].encoded('gzip');
    pages[1].encoded('br');
    expect(cache.page(1, 'b')).toBe(pages[1]);
    expect(cache.page(1, 'a')).toBeUndefined();
  });
});
