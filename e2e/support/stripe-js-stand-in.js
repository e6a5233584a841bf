// A stand-in for Stripe.js (https://js.stripe.com/endive/stripe.js) in the browser tests, where
// Stripe.js cannot be loaded (no internet). e2e/support/stripe-js.ts routes Stripe's script to this
// file. It implements exactly the calls Innkeep's dashboard makes, with the answers Stripe documents
// for them, and nothing else:
//   Stripe(publishableKey)                  the instance (refuses a key that is not pk_test_/pk_live_)
//   stripe.elements({mode, currency, …})    an Elements group; `update` keeps the new options
//   elements.create("payment") + mount      the Payment Element: plain fields for the card's number,
//                                           expiry and security code (Stripe's own are in its frames)
//   elements.submit()                       Stripe's validation errors for incomplete fields
//   stripe.createPaymentMethod({elements})  Stripe's test PaymentMethod for the test number typed
//                                           (docs: Testing): 4242… pm_card_visa, 5555… pm_card_mastercard,
//                                           4000…0002 pm_card_chargeDeclined, 4000…9995 …InsufficientFunds,
//                                           4000 0027 6000 3184 pm_card_authenticationRequired,
//                                           4000 0025 0000 3155 pm_card_authenticationRequiredOnSetup
//   stripe.handleNextAction({clientSecret}) the guest's answer to their bank's check, sent to Stripe (the
//   stripe.confirmCardSetup(clientSecret)   test relay, tests/support/stripe-states.ts, at
//                                           https://api.stripe.com/__innkeep/authenticate): "authenticated"
//                                           unless a spec set window.__innkeepGuestAnswer ("failed", "declined")
// What this proves is the dashboard's side: the calls it makes and how it handles each answer. It
// proves nothing about Stripe.js itself, its frames or the real 3-D Secure screens.
(() => {
  const testCards = {
    4242424242424242: { id: "pm_card_visa", brand: "visa" },
    5555555555554444: { id: "pm_card_mastercard", brand: "mastercard" },
    4000000000000002: { id: "pm_card_chargeDeclined", brand: "visa" },
    4000000000009995: { id: "pm_card_chargeDeclinedInsufficientFunds", brand: "visa" },
    4000002760003184: { id: "pm_card_authenticationRequired", brand: "visa" },
    4000002500003155: { id: "pm_card_authenticationRequiredOnSetup", brand: "visa" },
  };

  function PaymentElement(group) {
    const handlers = {};
    let root = null;
    const field = (name, label, placeholder) => {
      const wrap = document.createElement("label");
      wrap.style.cssText = "display:block;font-size:14px;margin-bottom:8px";
      wrap.textContent = label;
      const input = document.createElement("input");
      input.name = name;
      input.autocomplete = "off";
      input.placeholder = placeholder;
      input.inputMode = "numeric";
      input.style.cssText =
        "display:block;width:100%;box-sizing:border-box;margin-top:4px;padding:6px 8px;border:1px solid #a8a29e;border-radius:6px";
      wrap.appendChild(input);
      return wrap;
    };
    const element = {
      mount(target) {
        root = document.createElement("div");
        root.dataset.standIn = "stripe-payment-element";
        root.append(
          field("number", "Card number", "1234 1234 1234 1234"),
          field("expiry", "Expiration date", "MM / YY"),
          field("cvc", "Security code", "CVC"),
        );
        (typeof target === "string" ? document.querySelector(target) : target).appendChild(root);
        group.element = element;
        setTimeout(() => (handlers.ready ?? []).forEach((h) => h({ elementType: "payment" })), 0);
      },
      on(event, handler) {
        (handlers[event] ??= []).push(handler);
        return element;
      },
      off(event, handler) {
        handlers[event] = (handlers[event] ?? []).filter((h) => h !== handler);
        return element;
      },
      update() {},
      unmount() {
        root?.remove();
      },
      destroy() {
        root?.remove();
        root = null;
        if (group.element === element) group.element = null;
      },
      value(name) {
        return (root?.querySelector(`input[name=${name}]`)?.value ?? "").replace(/\s+/g, "");
      },
    };
    return element;
  }

  function Elements(options) {
    const group = {
      options,
      element: null,
      create(type) {
        if (type !== "payment") throw new Error(`The stand-in of Stripe.js makes only the Payment Element, not ${type}.`);
        return PaymentElement(group);
      },
      getElement() {
        return group.element;
      },
      update(next) {
        group.options = { ...group.options, ...next };
      },
      async submit() {
        const el = group.element;
        if (!el) return { error: { type: "validation_error", message: "The Payment Element is not mounted." } };
        if (!el.value("number"))
          return { error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } };
        if (!/^\d{2}\/?\d{2}$/.test(el.value("expiry")))
          return { error: { type: "validation_error", code: "incomplete_expiry", message: "Your card's expiration date is incomplete." } };
        if (!/^\d{3,4}$/.test(el.value("cvc")))
          return { error: { type: "validation_error", code: "incomplete_cvc", message: "Your card's security code is incomplete." } };
        return {};
      },
    };
    return group;
  }

  /** The guest's answer to their bank, told to Stripe (the relay): the intent as it then stands. */
  async function answerBank(key, clientSecret) {
    const res = await fetch("https://api.stripe.com/__innkeep/authenticate", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ key, client_secret: clientSecret, outcome: window.__innkeepGuestAnswer ?? "authenticated" }),
    });
    const intent = await res.json();
    if (!res.ok) return { error: { type: "invalid_request_error", ...intent.error } };
    const setup = intent.object === "setup_intent";
    const failure = setup ? intent.last_setup_error : intent.last_payment_error;
    if (intent.status === "requires_payment_method" && failure) return { error: { ...failure, [setup ? "setup_intent" : "payment_intent"]: intent } };
    return setup ? { setupIntent: intent } : { paymentIntent: intent };
  }

  function Stripe(key) {
    if (!/^pk_(test|live)_/.test(String(key))) throw new Error("Invalid API Key provided: Stripe.js takes a publishable key (pk_…).");
    const notUsed = (name) => () => Promise.reject(new Error(`Innkeep's dashboard does not call stripe.${name}; the stand-in does not play it.`));
    return {
      elements: (options) => Elements(options),
      async createPaymentMethod({ elements }) {
        const el = elements?.getElement();
        const card = el && testCards[el.value("number")];
        if (!card) return { error: { type: "card_error", code: "incorrect_number", message: "Your card number is invalid." } };
        const [month, year] = el
          .value("expiry")
          .replace("/", "")
          .match(/^(\d{2})(\d{2})$/)
          .slice(1);
        return {
          paymentMethod: {
            id: card.id,
            object: "payment_method",
            type: "card",
            card: { brand: card.brand, last4: el.value("number").slice(-4), exp_month: Number(month), exp_year: 2000 + Number(year) },
          },
        };
      },
      handleNextAction: ({ clientSecret }) => answerBank(key, clientSecret),
      confirmCardSetup: (clientSecret) => answerBank(key, clientSecret),
      // react-stripe-js checks that these exist before it takes the instance.
      createToken: notUsed("createToken"),
      confirmCardPayment: notUsed("confirmCardPayment"),
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }
  // The release train @stripe/stripe-js expects (it warns on another).
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
