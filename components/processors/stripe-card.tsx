"use client";

import { useQuery } from "@tanstack/react-query";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Appearance, type Stripe, type StripeElementsOptions } from "@stripe/stripe-js";
import { useEffect, useMemo, useState, type ReactNode, type RefObject } from "react";
import { useTRPC } from "@/components/trpc/client";

// The dashboard's card fields where a property's cards go through Stripe: Stripe's Payment Element
// (Stripe.js, in Stripe's own frames), so the card goes from the clerk's browser to Stripe and
// only Stripe's payment method id (`pm_…`) reaches Innkeep, through the same tRPC procedures and
// services as /v1. Stripe.js also completes a 3-D Secure step the guest's bank asks for. Nothing
// here decides anything about a payment: the server does, and this says what it answered.

/** How the property's cards are typed at the desk: through Stripe (with its publishable key), or null: the sandbox's test numbers. */
export type CardEntry = { processor: "stripe"; mode: "test" | "live"; publishable_key: string | null } | null;

/** The property's card entry (null while loading, or without a property). */
export function useCardEntry(propertyId: string | null | undefined) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.processors.cardEntry.queryOptions({ property_id: propertyId ?? "" }), enabled: Boolean(propertyId), staleTime: 60_000 });
}

/** Stripe.js started with one publishable key, once per page (loadStripe loads the script once). */
const started = new Map<string, Promise<Stripe | null>>();
function stripeWith(publishableKey: string): Promise<Stripe | null> {
  let stripe = started.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load (no network) may be tried again by the next dialog.
    stripe.catch(() => started.delete(publishableKey));
    started.set(publishableKey, stripe);
  }
  return stripe;
}

/** A refusal said in the browser, before or after the server was asked: shown above the form as it is. */
export class CardEntryError extends Error {}

/** The Payment Element in the dashboard's colours (Stripe's frames cannot use the page's font). */
const appearance: Appearance = {
  theme: "stripe",
  variables: { colorPrimary: "#0f766e", colorDanger: "#b91c1c", colorText: "#1c1917", borderRadius: "6px", fontSizeBase: "14px" },
};

/**
 * Stripe's Elements for one card: `payment` (an amount to charge, in minor units, or hold with
 * `hold`) or `setup` (a card put on file). Cards only, and the payment method made by the browser
 * (`paymentMethodCreation: manual`) for the server to charge or save.
 */
export function StripeCardElements({
  publishableKey,
  purpose,
  currency,
  children,
}: {
  publishableKey: string;
  purpose: { mode: "payment"; amount: number; hold: boolean } | { mode: "setup" };
  currency: string;
  children: ReactNode;
}) {
  const stripe = useMemo(() => stripeWith(publishableKey), [publishableKey]);
  const amount = purpose.mode === "payment" ? purpose.amount : 0;
  const hold = purpose.mode === "payment" && purpose.hold;
  const options = useMemo<StripeElementsOptions>(() => {
    const common = { currency: currency.toLowerCase(), paymentMethodCreation: "manual" as const, allowedPaymentMethodTypes: ["card"], appearance };
    return purpose.mode === "payment"
      ? { ...common, mode: "payment", amount, captureMethod: hold ? "manual" : "automatic" }
      : { ...common, mode: "setup", setupFutureUsage: "off_session" };
  }, [purpose.mode, amount, hold, currency]);
  return (
    <Elements stripe={stripe} options={options}>
      {children}
    </Elements>
  );
}

/**
 * The card's fields (Stripe's frames), with what Stripe says if they cannot load. `paymentMethodRef`
 * is given the function that makes Stripe's payment method of what was typed, for the form's
 * submit (which sits outside Stripe's Elements).
 */
export function StripeCardField({ label, paymentMethodRef }: { label: string; paymentMethodRef: RefObject<(() => Promise<string>) | null> }) {
  const [failed, setFailed] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  const paymentMethod = useStripePaymentMethod();
  useEffect(() => {
    paymentMethodRef.current = paymentMethod;
    return () => {
      paymentMethodRef.current = null;
    };
  }, [paymentMethodRef, paymentMethod]);
  return (
    <div role="group" aria-label={label} className="space-y-1">
      <p className="text-sm font-medium text-stone-700">{label}</p>
      {!ready && !failed ? <p className="text-sm text-stone-500">Loading Stripe&apos;s card form…</p> : null}
      <PaymentElement
        options={{ layout: "tabs", wallets: { applePay: "never", googlePay: "never", link: "never" }, terms: { card: "never" } }}
        onReady={() => setReady(true)}
        onLoadError={(e) => setFailed(e.error.message ?? "Stripe's card form could not be loaded.")}
      />
      {failed ? (
        <p role="alert" className="text-sm text-red-700">
          Stripe&apos;s card form could not be loaded ({failed}). Check the connection, or take the payment another way.
        </p>
      ) : null}
    </div>
  );
}

/**
 * The card typed in the Payment Element as Stripe's payment method: the fields checked by Stripe
 * (`elements.submit()`), then the payment method made from them. Throws a CardEntryError in
 * Stripe's words when Stripe refuses the fields.
 */
export function useStripePaymentMethod() {
  const stripe = useStripe();
  const elements = useElements();
  return async (): Promise<string> => {
    if (!stripe || !elements) throw new CardEntryError("Stripe's card form is still loading; try again in a moment.");
    const submitted = await elements.submit();
    if (submitted.error) throw new CardEntryError(submitted.error.message ?? "Check the card's details.");
    const { paymentMethod, error } = await stripe.createPaymentMethod({ elements });
    if (error || !paymentMethod) throw new CardEntryError(error?.message ?? "Stripe could not read the card.");
    return paymentMethod.id;
  };
}

/**
 * The guest's bank check (3-D Secure) for a payment (`handleNextAction`) or a card put on file
 * (`confirmCardSetup`), done by Stripe.js in the clerk's browser for the guest to answer. Stripe's
 * error, if any, is returned, not thrown: the server is asked what came of it either way.
 */
export async function completeBankCheck(publishableKey: string, clientSecret: string, kind: "payment" | "setup"): Promise<string | null> {
  const stripe = await stripeWith(publishableKey);
  if (!stripe) return "Stripe.js could not be loaded.";
  const result = kind === "payment" ? await stripe.handleNextAction({ clientSecret }) : await stripe.confirmCardSetup(clientSecret);
  return result.error?.message ?? null;
}
