import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { expect, test, type Page } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, snap, toasts } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";
import { standInForStripeJs, stripeRelayUrl } from "./support/stripe-js";

// Issue 37 at the desk: an owner connects the hotel's Stripe account (test keys) in Settings, and
// the desk takes cards in Stripe's Payment Element: a payment, a card the bank declines, a payment
// whose bank asks for the guest's 3-D Secure (completed, and not completed), a card put on file
// that asks for it too, and a payment the guest's bank disputes. Stripe.js is the stand-in of
// e2e/support/stripe-js-stand-in.js (Stripe.js cannot be loaded here); the server is real and
// talks to stripe-mock behind the test relay, which also records the guest's answer to their bank.
// What this proves: the dashboard's calls to Stripe.js and to the server, and its handling of each answer.

test.describe.configure({ timeout: 240_000 });

const secretKey = () => `sk_test_${randomBytes(16).toString("hex")}`;
const publishableKey = () => `pk_test_${randomBytes(16).toString("hex")}`;
const signingSecret = () => `whsec_${randomBytes(16).toString("hex")}`;

/** Types a card in the Payment Element (the stand-in's fields, where Stripe's frames would be). */
async function typeCard(scope: ReturnType<Page["getByRole"]>, number: string) {
  const card = scope.getByRole("group", { name: "Card" });
  await card.getByLabel("Card number").fill(number);
  await card.getByLabel("Expiration date").fill("12/34");
  await card.getByLabel("Security code").fill("123");
}

/** The folio's payment line that reads `words` (method and status). */
const paymentLine = (page: Page, words: RegExp) => page.getByRole("region", { name: "Payments" }).getByRole("listitem").filter({ hasText: words });

for (const width of [1280, 390]) {
  test(`at ${width} px an owner connects Stripe and the desk takes cards through Stripe's Payment Element`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    const unexpected = await standInForStripeJs(page);
    const hotel = await hotelOfItsOwn(request, { name: "Card Harbor Inn", role: "owner", timezone: "America/New_York", rooms: ["101", "102", "103", "104", "105"] });
    const keys = { secret: secretKey(), publishable: publishableKey(), webhook: signingSecret() };
    const [paid, declined, secure, abandoned, onFile] = await Promise.all(
      ["Paid", "Declined", "Secure", "Abandoned", "Onfile"].map((last) => hotel.book("Ada", last, 1, 1)),
    );
    await signIn(page, hotel.staff);

    // Settings: the account's test keys, checked with Stripe (the relay) as they are saved.
    await page.goto("/settings");
    const connect = page.getByRole("form", { name: "Connect Stripe" });
    await connect.getByLabel("Secret or restricted key").fill(keys.secret);
    await connect.getByLabel("Publishable key").fill(`pk_live_${randomBytes(8).toString("hex")}`);
    await connect.getByRole("button", { name: "Connect Stripe" }).click();
    await expect(connect.getByText("Give the publishable key of the same mode as the secret key (both test, or both live).")).toBeVisible();
    await connect.getByLabel("Publishable key").fill(keys.publishable);
    await connect.getByLabel("Webhook signing secret (optional)").fill(keys.webhook);
    await connect.getByRole("button", { name: "Connect Stripe" }).click();
    await expect(toasts(page).getByText("Stripe connected (test mode). The key is stored encrypted and will not be shown again.")).toBeVisible();
    const connected = page.getByRole("list", { name: "Connected Stripe accounts" });
    await expect(connected).toContainText(`Publishable key ${keys.publishable}: the desk takes new cards in Stripe's card form`);
    await expect(connected).not.toContainText(keys.secret);
    await expectNoSeriousAxe(page);
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "stripe-settings");

    // A card payment through the Payment Element: only Stripe's payment method reaches Innkeep.
    const takePayment = async (reservationId: string, number: string, check?: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>) => {
      await page.goto(`/reservations/${reservationId}`);
      await page.getByRole("button", { name: "Take payment" }).click();
      const dialog = page.getByRole("dialog", { name: "Take a payment" });
      await dialog.getByLabel("Method").selectOption({ label: "New card" });
      await typeCard(dialog, number);
      await check?.(dialog);
      await dialog.getByRole("button", { name: "Take payment" }).click();
      return dialog;
    };
    await takePayment(paid.id, "4242 4242 4242 4242", async (dialog) => {
      await expect(dialog).toContainText("Stripe test mode: 4242 4242 4242 4242 succeeds");
      await expectNoSeriousAxe(page, "[role=dialog]");
      if (width < 1024) await expectNoHorizontalScroll(page);
      await snap(page, "stripe-payment-element");
    });
    await expect(toasts(page).getByText("Payment of $120.00 received")).toBeVisible();
    await expect(paymentLine(page, /Card •••• 4242/)).toContainText("Paid");
    await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");

    // A card the bank declines: said in words in the dialog, and kept on the folio as declined.
    const refused = await takePayment(declined.id, "4000 0000 0000 0002");
    await expect(refused.getByRole("alert")).toHaveText("Declined: Your card was declined.");
    await expectNoSeriousAxe(page, "[role=dialog]");
    await refused.getByRole("button", { name: "Cancel" }).click();
    await expect(paymentLine(page, /Declined/)).toContainText("Your card was declined.");
    await expect(page.getByTestId("folio-balance")).toHaveText("$120.00");

    // The guest's bank asks for 3-D Secure: Stripe.js shows the check, the guest authenticates, paid at once.
    await takePayment(secure.id, "4000 0027 6000 3184");
    await expect(toasts(page).getByText("The guest's bank confirmed it: payment of $120.00 received")).toBeVisible();
    await expect(paymentLine(page, /Card •••• 4242/)).toContainText("Paid");
    await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");

    // The guest does not complete their bank's check: nothing charged, and said so.
    await page.goto(`/reservations/${abandoned.id}`);
    await page.evaluate(() => ((window as unknown as { __innkeepGuestAnswer?: string }).__innkeepGuestAnswer = "failed"));
    await page.getByRole("button", { name: "Take payment" }).click();
    const dialog = page.getByRole("dialog", { name: "Take a payment" });
    await dialog.getByLabel("Method").selectOption({ label: "New card" });
    await typeCard(dialog, "4000 0027 6000 3184");
    await dialog.getByRole("button", { name: "Take payment" }).click();
    const notCompleted = "The guest did not complete their bank's check (3-D Secure), so nothing was charged: try again, or take another card.";
    await expect(toasts(page).getByText(`The payment did not go through: ${notCompleted}`)).toBeVisible();
    await expect(paymentLine(page, /Declined/)).toContainText(notCompleted);
    await expect(page.getByTestId("folio-balance")).toHaveText("$120.00");

    // A card on file whose bank asks for the guest's check when it is saved.
    await page.goto(`/reservations/${onFile.id}`);
    const cardOnFile = page.getByTestId("card-on-file");
    await expect(cardOnFile).toContainText("None");
    await cardOnFile.getByRole("button", { name: "Put a card on file" }).click();
    const save = page.getByRole("dialog", { name: "Put a card on file" });
    await typeCard(save, "4000 0025 0000 3155");
    await expectNoSeriousAxe(page, "[role=dialog]");
    if (width < 1024) await expectNoHorizontalScroll(page);
    await save.getByRole("button", { name: "Save the card" }).click();
    await expect(toasts(page).getByText(/^The guest's bank confirmed it: Visa •••• 4242, expires \d\d\/\d{4} is on file$/)).toBeVisible();
    // On file and chargeable: no longer waiting for the guest's bank.
    await expect(cardOnFile.getByText(/^Visa •••• 4242, expires \d\d\/\d{4}$/)).toBeVisible();
    await expect(cardOnFile.getByRole("button", { name: "Ask the guest's bank again" })).toHaveCount(0);
    await expect(cardOnFile.getByRole("button", { name: "Replace the card" })).toBeVisible();
    // Chargeable now: it is offered in the payment dialog.
    await page.getByRole("button", { name: "Take payment" }).click();
    await expect(page.getByRole("dialog", { name: "Take a payment" }).getByLabel("Method")).toHaveValue("card_on_file");
    await page.getByRole("dialog", { name: "Take a payment" }).getByRole("button", { name: "Cancel" }).click();

    // Stripe tells Innkeep the first payment is disputed (signed, as Stripe sends it): shown on its line in words.
    const processor = (await hotel.api.get("/payment_processors")).data[0];
    const payment = (await hotel.api.get(`/payments?reservation_id=${paid.id}`)).data[0];
    const fixture = async (path: string) => (await fetch(`${stripeRelayUrl()}${path}`, { headers: { authorization: `Bearer ${keys.secret}` } })).json();
    const dispute = { ...(await fixture("/v1/disputes/dp_fixture")), id: `dp_${randomBytes(8).toString("hex")}`, payment_intent: payment.processor.payment_id, amount: 12_000, currency: "usd", reason: "fraudulent", status: "needs_response" };
    const event = { ...(await fixture("/v1/events/evt_fixture")), id: `evt_${randomBytes(12).toString("hex")}`, type: "charge.dispute.created", livemode: false, created: Math.floor(Date.now() / 1000), data: { object: dispute } };
    const payload = JSON.stringify(event);
    const delivered = await request.post(`/stripe/webhooks/${processor.id}`, {
      headers: { "content-type": "application/json", "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: keys.webhook }) },
      data: payload,
    });
    expect(delivered.status(), await delivered.text()).toBe(200);
    await page.goto(`/reservations/${paid.id}`);
    await expect(page.getByTestId("payment-dispute")).toHaveText(
      /^Disputed by the guest's bank \(the cardholder says they did not make it\): \$120\.00 taken back on \w{3}, \w{3} \d{1,2}, \d{4}; answer it in Stripe's dashboard$/,
    );
    await expect(page.getByRole("region", { name: "Refunds" })).toContainText("Taken back by the guest's bank (dispute)");
    await expect(page.getByTestId("folio-balance")).toHaveText("$120.00");
    await expectNoSeriousAxe(page);
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "stripe-disputed-payment");

    // Nothing else was asked of Stripe's hosts than the stand-in knows.
    expect(unexpected).toEqual([]);
  });
}
