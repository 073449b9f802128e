import { useSearchParams } from 'react-router';
import { PAGE_SIZE } from './page-size';

export { PAGE_SIZE };

/**
 * A list's place in the URL (so Back and a shared link find the same page): `after=<cursor>` pages
 * forward, `before=<cursor>` backward; filters are other parameters, and changing one starts again
 * from the first page.
 */
export function usePaging() {
  const [params, setParams] = useSearchParams();
  const after = params.get('after');
  const before = params.get('before');
  const window = before ? { last: PAGE_SIZE, before } : { first: PAGE_SIZE, after };
  const set = (changes: Record<string, string | null>, keepPage = false) => {
    const next = new URLSearchParams(params);
    if (!keepPage) {
      next.delete('after');
      next.delete('before');
    }
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  return {
    params,
    window,
    set,
    next: (endCursor: string | null | undefined) => set({ after: endCursor ?? null, before: null }, true),
    previous: (startCursor: string | null | undefined) => set({ before: startCursor ?? null, after: null }, true),
  };
}
