/**
 * The shapes of Stripe's keys, one table for the API's schema and the Settings form: a secret
 * (`sk_`) or restricted (`rk_`) key, test or live, and a webhook endpoint's signing secret.
 */
export const stripeKeyPattern = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,240}$/;
export const stripeKeyMessage = "Expected a Stripe secret key (sk_test_…, sk_live_…) or restricted key (rk_test_…, rk_live_…).";
export const stripeWebhookSecretPattern = /^whsec_[A-Za-z0-9+/=]{8,240}$/;
export const stripeWebhookSecretMessage = "Expected Stripe's webhook signing secret (whsec_…).";
/** A live key moves real money: the sandbox refuses it. */
export const isLiveStripeKey = (key: string) => /^(sk|rk)_live_/.test(key);
