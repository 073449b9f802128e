/** `{ [key]: value }` with the value trimmed, or nothing when it is empty: an optional input left blank is not sent. */
export function filled(key: string, value: string): Record<string, string> {
  const trimmed = value.trim();
  return trimmed ? { [key]: trimmed } : {};
}
