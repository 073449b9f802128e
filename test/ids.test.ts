import { newId, pooledRandomBytes } from '@backoffice/platform';

describe('random bytes and ids', () => {
  it('hands out fresh bytes across refills of the pool, never wiped leftovers', () => {
    // 8 KiB per refill: 1,000 draws of 32 bytes cross it several times, interleaved with id draws.
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const bytes = pooledRandomBytes(32);
      expect(bytes.length).toBe(32);
      expect(bytes.equals(Buffer.alloc(32))).toBe(false);
      seen.add(bytes.toString('hex'));
      newId('x');
    }
    expect(seen.size).toBe(1000);
  });

  it('refuses a byte count that is not a whole number, leaving the pool intact', () => {
    expect(() => pooledRandomBytes(-32)).toThrow(RangeError);
    expect(() => pooledRandomBytes(Number.NaN)).toThrow(RangeError);
    expect(pooledRandomBytes(32).equals(Buffer.alloc(32))).toBe(false);
    expect(newId('key')).toMatch(/^key_[0-9A-Z]{26}$/);
  });

  it('keeps ids unique and in order across refills', () => {
    const ids = Array.from({ length: 5000 }, () => newId('evt'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // The random part is not stuck on zeros (which a read of a wiped pool would give).
    const zeros = ids.filter((id) => id.endsWith('0000000000000000')).length;
    expect(zeros).toBe(0);
  });
});
