// The browser tests' Stripe: stripe-mock (the running one, else one of the run's own) behind the
// integration tests' relay (tests/support/stripe-states.ts), on E2E_STRIPE_PORT. playwright.config.ts
// starts this before the server, whose STRIPE_API_URL points here, and stops it at the end.
import { startStripe } from "../../tests/support/stripe";

const stripe = await startStripe(Number(process.env.E2E_STRIPE_PORT));
console.log(`Stripe for the browser tests: the relay at ${stripe.relayUrl}, in front of stripe-mock at ${stripe.mockUrl}`);
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stripe.stop().then(() => process.exit(0)));
