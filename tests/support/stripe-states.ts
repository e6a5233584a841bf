// A relay in front of stripe-mock for the test run. Every request goes on to stripe-mock, which
// validates it against Stripe's published API and answers a fixture (its 4xx come back as they
// are). stripe-mock keeps no state, so its fixture PaymentIntent is always `requires_payment_method`;
// the relay sets on a 2xx answer what Stripe's documented lifecycle gives for that request, and
// nothing else: a confirmed PaymentIntent `succeeded` (automatic capture) or `requires_capture`
// (manual), a captured one `succeeded`, a canceled one `canceled`, a confirmed SetupIntent
// `succeeded` (a PaymentIntent or SetupIntent of a card that always asks for 3-D Secure:
// `requires_action`, with a client secret). It also plays what Stripe
// documents and stripe-mock does not: the same Idempotency-Key replays the first answer (header
// `Idempotent-Replayed: true`), Stripe's test payment methods for declines answer Stripe's 402
// card error (a saved card of `pm_card_chargeCustomerFail` when charged; off-session, a card that
// asks for authentication answers `authentication_required`, but `pm_card_authenticationRequiredOnSetup`
// asks only when saved and on-session), and a revoked key Stripe's 401. Tests read what reached Stripe at
// GET /__innkeep/requests?key=<secret key>. As Stripe does, it keeps the PaymentIntents a key
// made, with their metadata and time of creation (stripe-mock's fixture has neither), and answers
// the list (`created[gte]`) and a retrieve with them, so the reconciliation finds what was charged;
// the SetupIntents too, for a retrieve. What the guest does in their browser on a 3-D Secure step
// (Stripe.js's `handleNextAction`/`confirmCardSetup` talking to Stripe) is played by
// POST /__innkeep/authenticate {client_secret, outcome: authenticated|failed|declined}: the intent
// of that client secret moves as Stripe documents for each (e2e/support/stripe-js-stand-in.js calls it).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";

export type StripeRequest = { method: string; path: string; params: Record<string, string>; idempotencyKey: string | null; replayed: boolean; status: number };

/** Stripe's test payment methods that decline (docs: Testing, "Declined payments"): code and decline_code. */
const declines: Record<string, { code: string; decline_code?: string; message: string }> = {
  pm_card_chargeDeclined: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
  pm_card_chargeDeclinedInsufficientFunds: { code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
  pm_card_chargeDeclinedExpiredCard: { code: "expired_card", message: "Your card has expired." },
  pm_card_chargeDeclinedIncorrectCvc: { code: "incorrect_cvc", message: "Your card's security code is incorrect." },
};

/**
 * Stripe's test payment methods that save fine but fail when charged later (docs: Testing,
 * "Declined payments", 4000000000000341), and those whose bank asks for authentication on every
 * payment and setup (4000002760003184): off-session, Stripe answers `authentication_required`.
 */
const chargeCustomerFail = "pm_card_chargeCustomerFail";
/** A card whose bank does not let a hold grow (incremental authorization). */
const noIncrements = "pm_card_amex";
const alwaysAuthenticate = new Set(["pm_card_authenticationRequired", "pm_card_threeDSecure2Required"]);
/** Stripe's test card whose bank asks for authentication when it is saved and on-session, never off-session once saved (4000002500003155). */
const authenticateOnSetup = "pm_card_authenticationRequiredOnSetup";

/** A client secret as Stripe makes it for an intent: its id, `_secret_`, and a random tail. */
const clientSecretOf = (id: string) => `${id}_secret_${randomBytes(12).toString("hex")}`;

const stripeId = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;

export async function startStripeStates(mockUrl: string, port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const log = new Map<string, StripeRequest[]>();
  const answered = new Map<string, { status: number; body: string; sent: string }>();
  /** The PaymentIntents each key made, by id, as they now stand. */
  const intents = new Map<string, Map<string, Record<string, unknown>>>();
  const intentsOf = (key: string) => intents.get(key) ?? intents.set(key, new Map()).get(key)!;
  /** The SetupIntents each key confirmed, by id, as they now stand. */
  const setups = new Map<string, Map<string, Record<string, unknown>>>();
  const setupsOf = (key: string) => setups.get(key) ?? setups.set(key, new Map()).get(key)!;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://relay");
    if (url.pathname === "/__innkeep/requests") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(log.get(url.searchParams.get("key") ?? "") ?? []));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    if (url.pathname === "/__innkeep/authenticate" && req.method === "POST") {
      const { status, answer } = authenticate(Object.fromEntries(new URLSearchParams(body)));
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
      return;
    }
    const secretKey = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
    const params = Object.fromEntries(new URLSearchParams(req.method === "GET" ? url.search : body));
    const entry: StripeRequest = { method: req.method ?? "GET", path: url.pathname, params, idempotencyKey, replayed: false, status: 0 };
    (log.get(secretKey) ?? log.set(secretKey, []).get(secretKey)!).push(entry);
    const send = (status: number, text: string, headers: Record<string, string> = {}) => {
      entry.status = status;
      res.writeHead(status, { "content-type": "application/json", "request-id": stripeId("req"), ...headers });
      res.end(text);
    };

    const memo = idempotencyKey && req.method === "POST" ? `${secretKey}\n${idempotencyKey}` : null;
    const earlier = memo ? answered.get(memo) : undefined;
    const sent = JSON.stringify(Object.entries(params).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (earlier && earlier.sent !== sent) {
      // Stripe's own answer to a key sent again with other parameters.
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
      return send(400, JSON.stringify({ error: { type: "idempotency_error", message } }));
    }
    if (earlier) {
      entry.replayed = true;
      return send(earlier.status, earlier.body, { "idempotent-replayed": "true" });
    }
    const remember = (status: number, text: string) => {
      if (memo && status < 500) answered.set(memo, { status, body: text, sent });
      send(status, text);
    };

    if (secretKey.includes("revoked")) {
      const masked = `${secretKey.slice(0, 8)}${"*".repeat(4)}${secretKey.slice(-4)}`;
      return send(401, JSON.stringify({ error: { message: `Expired API Key provided: ${masked}`, type: "invalid_request_error", code: "api_key_expired" } }));
    }
    const forwarded = await fetch(`${mockUrl}${url.pathname}${url.search}`, {
      method: req.method,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([name]) => !["host", "content-length", "connection"].includes(name)) as [string, string][]),
      body: req.method === "GET" || req.method === "DELETE" ? undefined : body,
    });
    const text = await forwarded.text();
    if (!forwarded.ok) return remember(forwarded.status, text);
    const object = JSON.parse(text) as Record<string, unknown>;

    if (req.method === "GET" && url.pathname === "/v1/payment_intents") {
      const since = Number(url.searchParams.get("created[gte]") ?? 0);
      const data = [...intentsOf(secretKey).values()].filter((i) => (i.created as number) >= since).reverse();
      return send(200, JSON.stringify({ ...object, data, has_more: false }));
    }
    const retrieved = req.method === "GET" ? url.pathname.match(/^\/v1\/payment_intents\/([^/]+)$/) : null;
    if (retrieved && intentsOf(secretKey).has(retrieved[1])) return send(200, JSON.stringify(intentsOf(secretKey).get(retrieved[1])));
    const retrievedSetup = req.method === "GET" ? url.pathname.match(/^\/v1\/setup_intents\/([^/]+)$/) : null;
    if (retrievedSetup && setupsOf(secretKey).has(retrievedSetup[1])) return send(200, JSON.stringify(setupsOf(secretKey).get(retrievedSetup[1])));

    if (req.method === "POST" && url.pathname === "/v1/setup_intents" && params.confirm === "true") {
      // A confirmed setup: declined as a charge of the card would be, waiting on the guest where
      // their bank asks for authentication, else succeeded, attached to the customer asked for.
      const method = params.payment_method ?? "";
      const decline = declines[method];
      if (decline) {
        const failed = { ...object, status: "requires_payment_method", last_setup_error: { type: "card_error", ...decline } };
        return remember(402, JSON.stringify({ error: { type: "card_error", ...decline, setup_intent: failed } }));
      }
      const authenticate = alwaysAuthenticate.has(method) || method === authenticateOnSetup;
      // An id of its own, as Stripe gives each (stripe-mock's fixture has one for all).
      const id = stripeId("seti");
      Object.assign(object, {
        id,
        client_secret: clientSecretOf(id),
        status: authenticate ? "requires_action" : "succeeded",
        customer: params.customer ?? null,
        payment_method: method,
        usage: params.usage ?? "off_session",
        next_action: authenticate ? { type: "use_stripe_sdk", use_stripe_sdk: {} } : null,
        last_setup_error: null,
      });
      setupsOf(secretKey).set(id, object);
      return remember(forwarded.status, JSON.stringify(object));
    }

    const intent = url.pathname.match(/^\/v1\/payment_intents(?:\/([^/]+)\/(capture|cancel|increment_authorization))?$/);
    if (intent && req.method === "POST") {
      const [, id, action] = intent;
      if (!action && params.confirm === "true") {
        const method = params.payment_method ?? "";
        const offSession = params.off_session === "true";
        const decline =
          declines[method] ??
          (method === chargeCustomerFail && params.customer ? declines.pm_card_chargeDeclined : undefined) ??
          (alwaysAuthenticate.has(method) && offSession
            ? { code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." }
            : undefined);
        const intentId = object.id as string;
        if (decline) {
          const failed = { ...object, status: "requires_payment_method", last_payment_error: { type: "card_error", ...decline } };
          const error = { type: "card_error", ...decline, charge: stripeId("ch"), payment_intent: failed, doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}` };
          return remember(402, JSON.stringify({ error }));
        }
        const manual = params.capture_method === "manual";
        const authenticate = alwaysAuthenticate.has(method) || (method === authenticateOnSetup && !offSession);
        Object.assign(object, {
          id: intentId,
          status: authenticate ? "requires_action" : manual ? "requires_capture" : "succeeded",
          capture_method: manual ? "manual" : "automatic",
          client_secret: clientSecretOf(intentId),
          next_action: authenticate ? { type: "use_stripe_sdk", use_stripe_sdk: {} } : null,
          amount_capturable: manual && !authenticate ? object.amount : 0,
          amount_received: manual || authenticate ? 0 : object.amount,
          latest_charge: authenticate ? null : stripeId("ch"),
          last_payment_error: null,
          canceled_at: null,
        });
      } else if (action === "capture") {
        const amount = Number(params.amount_to_capture ?? object.amount);
        Object.assign(object, { id, status: "succeeded", amount_capturable: 0, amount_received: amount, latest_charge: stripeId("ch"), canceled_at: null });
      } else if (action === "increment_authorization") {
        // Stripe raises a hold only where it was asked for when authorized and the card allows it
        // (the relay plays American Express as a card whose bank does not), and only upward.
        const kept = intentsOf(secretKey).get(id);
        const asked = kept?.incremental_requested === true;
        const amount = Number(params.amount);
        if (!kept || kept.status !== "requires_capture" || !asked || kept.payment_method === noIncrements || !(amount > (kept.amount as number))) {
          const message = !kept || kept.status !== "requires_capture" ? "This PaymentIntent's authorization cannot be incremented in its current state." : "This PaymentIntent is not eligible for incremental authorization.";
          return remember(400, JSON.stringify({ error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message } }));
        }
        Object.assign(object, { ...kept, amount, amount_capturable: amount });
      } else if (action === "cancel") {
        Object.assign(object, { id, status: "canceled", amount_capturable: 0, cancellation_reason: params.cancellation_reason ?? null });
      }
      const kept = id ? intentsOf(secretKey).get(id) : undefined;
      if (kept) Object.assign(object, { metadata: kept.metadata, created: kept.created, payment_method: kept.payment_method });
      else if (!action) {
        object.incremental_requested = params["payment_method_options[card][request_incremental_authorization]"] === "if_available";
        const metadata = Object.fromEntries(Object.entries(params).flatMap(([name, value]) => (name.match(/^metadata\[(.+)\]$/) ? [[name.slice(9, -1), value]] : [])));
        Object.assign(object, { metadata, created: Math.floor(Date.now() / 1000) });
      }
      intentsOf(secretKey).set(object.id as string, object);
    }
    return remember(forwarded.status, JSON.stringify(object));
  }

  /**
   * The guest's answer to their bank's check, as Stripe records it: authenticated, a PaymentIntent
   * goes on to its capture (or its hold) and a SetupIntent succeeds; failed (the check failed or was
   * closed), each goes back to `requires_payment_method` with Stripe's `*_authentication_failure`;
   * declined (authenticated, then refused by the bank), the payment fails with `card_declined`.
   * Only an intent in `requires_action` can be answered, as in Stripe.js.
   */
  function authenticate({ client_secret: secret = "", outcome = "authenticated" }: Record<string, string>): { status: number; answer: unknown } {
    const all = [...intents.values(), ...setups.values()].flatMap((m) => [...m.values()]);
    const intent = all.find((i) => i.client_secret === secret);
    if (!intent) return { status: 404, answer: { error: { type: "invalid_request_error", code: "resource_missing", message: "No such client secret." } } };
    if (intent.status !== "requires_action") {
      return { status: 400, answer: { error: { type: "invalid_request_error", code: "unexpected_state", message: `This intent is ${String(intent.status)}, not requires_action.` } } };
    }
    const setup = intent.object === "setup_intent";
    const failure = (code: string, message: string, declineCode?: string) => ({ type: code.endsWith("authentication_failure") ? "invalid_request_error" : "card_error", code, message, ...(declineCode ? { decline_code: declineCode } : {}) });
    if (outcome === "authenticated") {
      const manual = intent.capture_method === "manual";
      Object.assign(
        intent,
        setup
          ? { status: "succeeded", next_action: null }
          : { status: manual ? "requires_capture" : "succeeded", next_action: null, amount_capturable: manual ? intent.amount : 0, amount_received: manual ? 0 : intent.amount, latest_charge: stripeId("ch") },
      );
    } else if (outcome === "failed") {
      const error = failure(
        setup ? "setup_intent_authentication_failure" : "payment_intent_authentication_failure",
        `The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this ${setup ? "SetupIntent" : "PaymentIntent"} again.`,
      );
      Object.assign(intent, { status: "requires_payment_method", next_action: null, payment_method: null, [setup ? "last_setup_error" : "last_payment_error"]: error });
    } else if (outcome === "declined") {
      const error = failure("card_declined", "Your card was declined.", "generic_decline");
      Object.assign(intent, { status: "requires_payment_method", next_action: null, [setup ? "last_setup_error" : "last_payment_error"]: error });
    } else {
      return { status: 400, answer: { error: { type: "invalid_request_error", message: `Unknown outcome ${outcome}.` } } };
    }
    return { status: 200, answer: intent };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: String(error) } }));
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What reached Stripe (through the relay) with this secret key, in order. */
export async function stripeRequests(secretKey: string): Promise<StripeRequest[]> {
  const res = await fetch(`${process.env.STRIPE_API_URL}/__innkeep/requests?key=${encodeURIComponent(secretKey)}`);
  return (await res.json()) as StripeRequest[];
}
