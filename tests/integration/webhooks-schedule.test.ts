import { afterAll, beforeAll, expect, it } from "vitest";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { parseRetrySchedule } from "@/server/webhooks/settings";
import { verifyWebhook } from "@/server/webhooks/verify-signature";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// The whole schedule, shortened as WEBHOOK_RETRY_SCHEDULE=1 would: an endpoint that always
// answers 503 gets exactly 8 attempts, then the delivery is permanently failed; a replay still
// delivers once the endpoint answers again. Expected delays are the specification's table
// ("Delivery and retry"), written out here, not read from the code.

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;
// WEBHOOK_RETRY_SCHEDULE=1: one second before each of attempts 2…8.
const schedule = [1, 1, 1, 1, 1, 1, 1];

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver((_req, res) => res.writeHead(503).end("down"));
  dispatcher = startTestDispatcher(h.db, { retrySchedule: schedule });
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

it("reads WEBHOOK_RETRY_SCHEDULE as the delays before attempts 2…8, and defaults to the specification's", () => {
  // 30 s, 2 min, 10 min, 1 h, 6 h, 24 h, 72 h, in seconds.
  expect(parseRetrySchedule(undefined)).toEqual([30, 120, 600, 3600, 21600, 86400, 259200]);
  expect(parseRetrySchedule("1")).toEqual(schedule);
  // A shorter list repeats its last delay for the attempts it does not name.
  expect(parseRetrySchedule("5, 10")).toEqual([5, 10, 10, 10, 10, 10, 10]);
});

it("makes exactly 8 attempts, spaced by the schedule, then fails for good; replay still delivers", async () => {
  const endpoint = (await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/down`, enabled_events: ["guest.created"] })).json;
  await h.post("/v1/guests", { first_name: "S", last_name: "S", email: "schedule@example.com" });
  const [event] = (await h.get("/v1/events?type=guest.created&limit=1")).json.data;

  const failed = await waitFor(async () => {
    const d = (await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?event_id=${event.id}`)).json.data[0];
    return d?.status === "failed" ? d : undefined;
  }, "permanently failed");
  expect(failed.attempts.map((a: { number: number }) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(failed.attempts.every((a: { response_status: number }) => a.response_status === 503)).toBe(true);
  expect(failed.next_attempt_at).toBeNull();
  for (let i = 1; i < 8; i++) {
    const gap = Date.parse(failed.attempts[i].started_at) - Date.parse(failed.attempts[i - 1].started_at);
    expect(gap).toBeGreaterThanOrEqual(schedule[i - 1] * 1000);
  }
  expect(receiver.requests).toHaveLength(8);

  receiver.setHandler((_req, res) => res.end("back"));
  const replay = await h.post(`/v1/webhook_endpoints/${endpoint.id}/replay`, { event_id: event.id });
  expect(replay.status).toBe(202);
  const replayed = await waitFor(async () => {
    const d = (await h.get(`/v1/deliveries/${replay.json.delivery_id}`)).json;
    return d.status === "succeeded" ? d : undefined;
  }, "replay delivered");
  expect(replayed).toMatchObject({ event_id: event.id, source: "replay" });
  expect(replayed.attempts).toHaveLength(1);
  const last = receiver.requests[8];
  expect(verifyWebhook(last.body, last.headers["service-signature"], endpoint.secret).id).toBe(event.id);
  // The original stays as it was: failed after its 8 attempts.
  expect((await h.get(`/v1/deliveries/${failed.id}`)).json.attempts).toHaveLength(8);
});
