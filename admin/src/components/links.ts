/** An address to link to, when it is an absolute http(s) URL (the server only stores those; anything else is shown as text, never followed). */
export function webAddress(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
