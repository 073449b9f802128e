/** `text` as a literal inside a LIKE/ILIKE pattern: its `%`, `_` and `\` match only themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
