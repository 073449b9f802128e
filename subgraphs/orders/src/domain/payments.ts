/** An app key or a payment method: a lowercase word, digits and underscores after the first letter. */
export const KEY_PATTERN = '^[a-z][a-z0-9_]*$';

/** The longest payment window, declared or overridden: 30 days. */
export const WINDOW_MAX = 2_592_000;
