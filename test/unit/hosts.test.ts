import { HOST_MAX_LENGTH, isHostRef, normalizeHost } from '../../contracts/src/stores';
import { hostOf } from '../../subgraphs/identity/src/domain/stores';

/** Store hosts (docs/stores-and-pages.md, "Hosts"), without the system: stored lower case, without port or trailing dot. */
const label = (n: number) => 'a'.repeat(n);

describe('host normalization', () => {
  it('lower-cases and drops a port and one trailing dot', () => {
    expect(normalizeHost('Shop.Example.COM.:8443')).toBe('shop.example.com');
    expect(normalizeHost('shop.example.com')).toBe('shop.example.com');
    expect(normalizeHost('SHOP.EXAMPLE.COM:443')).toBe('shop.example.com');
    expect(normalizeHost('shop.example.com.')).toBe('shop.example.com');
    expect(normalizeHost('shop.example.com:1')).toBe('shop.example.com');
    expect(normalizeHost('shop.example.com:65535')).toBe('shop.example.com');
    expect(normalizeHost('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHost('a-1.b2.c3d')).toBe('a-1.b2.c3d');
    expect(normalizeHost('a.b')).toBe('a.b');
  });

  it('refuses ports out of range, two trailing dots, and a port in the wrong place', () => {
    for (const bad of [
      'shop.example.com:0',
      'shop.example.com:65536',
      'shop.example.com:123456',
      'shop.example.com:',
      'shop.example.com..',
      'shop.example.com:443.',
      'shop.example.com:http',
    ]) {
      expect([bad, normalizeHost(bad)]).toEqual([bad, null]);
    }
  });

  it('refuses IP addresses, localhost, single labels, schemes, paths, underscores, spaces and non-ASCII', () => {
    const bad = [
      '',
      'com',
      'localhost',
      'localhost:3000',
      '127.0.0.1',
      '10.0.0.1:80',
      '[::1]',
      '[::1]:443',
      '::1',
      'https://shop.example.com',
      'shop.example.com/path',
      'shop.example.com?x=1',
      'user@shop.example.com',
      'my_shop.example.com',
      'shop .example.com',
      ' shop.example.com',
      'shop.example.com ',
      'shop..example.com',
      '.example.com',
      '-shop.example.com',
      'shop-.example.com',
      'shop.example.c-',
      'bücher.example',
      'shop.exämple.com',
      'shop。example。com',
      'shop.example.123',
    ];
    for (const host of bad) expect([host, normalizeHost(host)]).toEqual([host, null]);
  });

  it('bounds labels at 63 characters and the host at 200 once normalized', () => {
    expect(normalizeHost(`${label(63)}.example`)).toBe(`${label(63)}.example`);
    expect(normalizeHost(`${label(64)}.example`)).toBeNull();
    const longest = [label(63), label(63), label(63), label(8)].join('.');
    expect(longest).toHaveLength(HOST_MAX_LENGTH);
    expect(normalizeHost(`${longest.toUpperCase()}.:8080`)).toBe(longest);
    expect(normalizeHost(`${longest}a`)).toBeNull();
  });

  it('takes a host for tenant.store.update, "" clearing it, anything else refused naming the rule', () => {
    expect(hostOf('')).toBeNull();
    expect(hostOf('Shop.Example.COM.:8443')).toBe('shop.example.com');
    expect(() => hostOf('localhost')).toThrow(
      expect.objectContaining({ kind: 'validation_failed', message: expect.stringMatching(/^host must be a host name \(at most 200 characters/) }),
    );
    expect(() => hostOf(' ')).toThrow(expect.objectContaining({ kind: 'validation_failed' }));
  });

  it('tells a host from an id or a handle by its dot or colon', () => {
    expect(isHostRef('shop.example.com')).toBe(true);
    expect(isHostRef('shop.example.com:443')).toBe(true);
    expect(isHostRef('localhost:3000')).toBe(true);
    expect(isHostRef('sto_01JABCDEFGHJKMNPQRSTVWXYZ0')).toBe(false);
    expect(isHostRef('my-shop')).toBe(false);
  });
});
