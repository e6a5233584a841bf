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
/** A publishable key (`pk_`), test or live: what Stripe.js in the browser is started with. */
export const stripePublishableKeyPattern = /^pk_(test|live)_[A-Za-z0-9]{8,240}$/;
export const stripePublishableKeyMessage = "Expected a Stripe publishable key (pk_test_… or pk_live_…).";
/** The mode of a secret, restricted or publishable key: a publishable key must match its secret key's. */
export const stripeKeyMode = (key: string): "test" | "live" => (/^(sk|rk|pk)_live_/.test(key) ? "live" : "test");
