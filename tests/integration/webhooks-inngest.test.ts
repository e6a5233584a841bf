import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fanOutEvents } from "@/server/webhooks/fan-out";
import { createDeliverWebhook } from "@/server/webhooks/inngest/deliver-webhook";
import { defaultRetrySchedule } from "@/server/webhooks/settings";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, testSettings, type Receiver } from "../support/webhooks";

// The Inngest function that drives a delivery, run with @inngest/test (the dev server cannot
// be installed here) against a real database and receiver. Each sleep is mocked by its step id,
// so the run goes through all eight attempts at once while the sleeps it asked for are recorded.

let h: Harness;
let receiver: Receiver;
let status = 500;

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver((_req, res) => res.writeHead(status).end());
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const deliverWebhook = () => createDeliverWebhook(async () => ({ db: h.db, settings: testSettings({ retrySchedule: [...defaultRetrySchedule] }) }));
const sleepMocks = () => [2, 3, 4, 5, 6, 7, 8].map((n) => ({ id: `wait-before-attempt-${n}`, handler() {} }));

let g = 0;
async function newDelivery(path: string) {
  const endpoint = (await h.post("/v1/webhook_endpoints", { url: `${receiver.url}${path}`, enabled_events: ["guest.created"] })).json;
  await h.post("/v1/guests", { first_name: "I", last_name: "N", email: `inngest${++g}@example.com` });
  const { deliveryIds } = await fanOutEvents(h.db);
  expect(deliveryIds.length).toBeGreaterThanOrEqual(1);
  const list = (await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries`)).json.data;
  expect(list).toHaveLength(1);
  return list[0].id as string;
}

const sleepCalls = (ctx: { step: { sleep: { mock: { calls: unknown[][] } } } }) => ctx.step.sleep.mock.calls.map((c) => [c[0], c[1]]);

describe("deliver-webhook (Inngest)", () => {
  it("sleeps exactly the schedule between the 8 attempts, then ends with the delivery failed", async () => {
    status = 500;
    const deliveryId = await newDelivery("/always-500");
    const t = new InngestTestEngine({
      function: deliverWebhook(),
      events: [{ name: "innkeep/webhook.delivery.queued", data: { delivery_id: deliveryId } }],
      steps: sleepMocks(),
    });
    const { result, ctx } = await t.execute();
    expect(sleepCalls(ctx as never)).toEqual([
      ["wait-before-attempt-2", "30s"],
      ["wait-before-attempt-3", "120s"],
      ["wait-before-attempt-4", "600s"],
      ["wait-before-attempt-5", "3600s"],
      ["wait-before-attempt-6", "21600s"],
      ["wait-before-attempt-7", "86400s"],
      ["wait-before-attempt-8", "259200s"],
    ]);
    expect(result).toMatchObject({ kind: "attempted", number: 8, status: "failed", retryInSeconds: null });
    const d = (await h.get(`/v1/deliveries/${deliveryId}`)).json;
    expect(d.status).toBe("failed");
    expect(d.attempts.map((a: { number: number; response_status: number }) => [a.number, a.response_status])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 500]),
    );
  });

  it("a permanent failure ends the run after one attempt, with no sleep", async () => {
    status = 400;
    const deliveryId = await newDelivery("/bad-request");
    const t = new InngestTestEngine({
      function: deliverWebhook(),
      events: [{ name: "innkeep/webhook.delivery.queued", data: { delivery_id: deliveryId } }],
      steps: sleepMocks(),
    });
    const { result, ctx } = await t.execute();
    expect(sleepCalls(ctx as never)).toEqual([]);
    expect(result).toMatchObject({ kind: "attempted", number: 1, result: "failed", status: "failed" });
    expect((await h.get(`/v1/deliveries/${deliveryId}`)).json.attempts).toHaveLength(1);
  });

  it("a success ends the run; a second run for the same delivery sends nothing", async () => {
    status = 200;
    const deliveryId = await newDelivery("/fine");
    const event = { name: "innkeep/webhook.delivery.queued", data: { delivery_id: deliveryId } } as const;
    const first = await new InngestTestEngine({ function: deliverWebhook(), events: [event], steps: sleepMocks() }).execute();
    expect(first.result).toMatchObject({ kind: "attempted", number: 1, status: "succeeded" });
    const before = receiver.requests.length;
    const second = await new InngestTestEngine({ function: deliverWebhook(), events: [event], steps: sleepMocks() }).execute();
    expect(second.result).toMatchObject({ kind: "skipped" });
    expect(receiver.requests.length).toBe(before);
  });
});
