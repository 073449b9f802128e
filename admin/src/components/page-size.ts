/** Rows on a page of a list (apart from paging.ts's router hook: the server's tests read it too). */
export const PAGE_SIZE = 50;
