import { decodeCursor, encodeCursor } from '../../platform/src/connection';

describe('connection cursors', () => {
  it('round-trip the order, the sort value and the id', () => {
    const cursor = encodeCursor('created_at', 'DESC', '2026-11-25 10:00:00.123456+00', 'prd_1');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, 'created_at', 'DESC', 'after')).toEqual({ key: '2026-11-25 10:00:00.123456+00', id: 'prd_1' });
  });

  it('refuse what is not theirs, naming the argument', () => {
    expect(() => decodeCursor('bm9wZQ', 'title', 'ASC', 'before')).toThrow('before is not a cursor of this list');
    expect(() => decodeCursor(Buffer.from('[1,2,3,4]').toString('base64url'), 'title', 'ASC', 'after')).toThrow('not a cursor');
    expect(() => decodeCursor(encodeCursor('title', 'DESC', 'a', 'b'), 'title', 'ASC', 'after')).toThrow('cursor of another order (title DESC)');
  });
});
