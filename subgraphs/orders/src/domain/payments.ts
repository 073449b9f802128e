/** An app key or a payment method: a lowercase word, digits and underscores after the first letter. */
export const KEY_PATTERN = '^[a-z][a-z0-9_]*$';

/** The longest payment window, declared or overridden: 30 days. */
export const WINDOW_MAX = 2_592_000;
/** Methods one payment app declares. */
export const PAYMENT_METHODS_MAX = 20;

/**
 * How long a payment attempt may stay `confirming` (since `order.payment.confirm` last marked it)
 * and still spare its order from expiry: 10 minutes. Far above any verification by a payment app
 * (seconds), so only a confirmation that died midway (process gone, second step failed) outlives
 * it; after it, expiry treats the attempt as open (order cancelled `payment_expired`, attempt failed
 * `expired`), and a confirmation arriving later is recorded as orphaned.
 */
export const CONFIRMING_TIMEOUT_SECONDS = 600;
