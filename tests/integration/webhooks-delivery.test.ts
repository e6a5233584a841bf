import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { verifyWebhook } from "@/server/webhooks/verify-signature";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver, type Respond } from "../support/webhooks";

// Every outcome of the specification's table against a real node:http receiver on 127.0.0.1,
// through the in-process dispatcher (one-second retries, a 1.5 s attempt deadline).

let h: Harness;
let receiver: Receiver;
let target: Receiver;
let dispatcher: Dispatcher;
const handlers = new Map<string, Respond>();

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver((req, res, received) => (handlers.get(new URL(req.url!, "http://x").pathname) ?? ((_q, r) => r.end("ok")))(req, res, received));
  target = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
});
afterEach(async () => {
  const list = await h.get("/v1/webhook_endpoints?limit=100");
  for (const e of list.json.data) await h.del(`/v1/webhook_endpoints/${e.id}`);
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await target?.close();
  await h?.close();
});

let guestCount = 0;
/** An endpoint at `path` answering with `respond`, and one new event (guest.created) for it. */
async function scenario(path: string, respond: Respond) {
  handlers.set(path, respond);
  const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}${path}`, enabled_events: ["guest.created"] });
  expect(created.status, created.text).toBe(201);
  const guest = await h.post("/v1/guests", { first_name: "Web", last_name: "Hook", email: `hook${++guestCount}@example.com` });
  expect(guest.status).toBe(201);
  const events = await h.get("/v1/events?type=guest.created&limit=1");
  const event = events.json.data[0];
  expect(event.data.object.id).toBe(guest.json.id);
  return { endpoint: created.json, secret: created.json.secret as string, event };
}

async function deliveryOf(endpointId: string, eventId: string) {
  const list = await h.get(`/v1/webhook_endpoints/${endpointId}/deliveries?event_id=${eventId}`);
  expect(list.status, list.text).toBe(200);
  return list.json.data[0];
}

const settled = (endpointId: string, eventId: string, status: string, attempts?: number) =>
  waitFor(async () => {
    const d = await deliveryOf(endpointId, eventId);
    return d && d.status === status && (attempts === undefined || d.attempts.length === attempts) ? d : undefined;
  }, `delivery ${status}${attempts ? ` after ${attempts} attempts` : ""}`);

const received = (path: string) => receiver.requests.filter((r) => r.url === path);

describe("webhook delivery outcomes", () => {
  it("200: delivered once, signed, with the headers of the contract, and recorded", async () => {
    const { endpoint, secret, event } = await scenario("/ok", (_req, res) => res.writeHead(200, { "x-receiver": "yes" }).end("thanks"));
    const d = await settled(endpoint.id, event.id, "succeeded", 1);
    const [req] = received("/ok");
    expect(req.method).toBe("POST");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe("Innkeep-Webhooks/1");
    expect(req.headers["service-request-id"]).toMatch(/^req_/);
    expect(req.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const verified = verifyWebhook(req.body, req.headers["service-signature"], secret);
    expect(verified).toEqual(event);
    expect(JSON.parse(req.body)).toEqual((await h.get(`/v1/events/${event.id}`)).json);

    expect(d).toMatchObject({ object: "webhook_delivery", endpoint_id: endpoint.id, event_id: event.id, event_type: "guest.created", next_attempt_at: null });
    const [attempt] = d.attempts;
    expect(attempt).toMatchObject({ number: 1, response_status: 200, response_body: "thanks", error: null });
    expect(attempt.id).toMatch(/^att_/);
    expect(attempt.response_headers["x-receiver"]).toBe("yes");
    expect(Number.isInteger(attempt.latency_ms)).toBe(true);
    expect(Date.parse(attempt.started_at)).not.toBeNaN();
    const one = await h.get(`/v1/deliveries/${d.id}`);
    expect(one.json).toEqual(d);
  });

  it("500 then 200: retried, each attempt signed afresh with its own request id", async () => {
    const { endpoint, secret, event } = await scenario("/flaky", (_req, res) => (received("/flaky").length === 1 ? res.writeHead(500).end("boom") : res.end("ok")));
    const d = await settled(endpoint.id, event.id, "succeeded", 2);
    expect(d.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 200]);
    const reqs = received("/flaky");
    expect(reqs).toHaveLength(2);
    expect(reqs[0].headers["service-request-id"]).not.toBe(reqs[1].headers["service-request-id"]);
    for (const r of reqs) expect(verifyWebhook(r.body, r.headers["service-signature"], secret).id).toBe(event.id);
  });

  for (const status of [400, 410]) {
    it(`${status}: permanently failed after one attempt`, async () => {
      const { endpoint, event } = await scenario(`/gone${status}`, (_req, res) => res.writeHead(status).end("no"));
      const d = await settled(endpoint.id, event.id, "failed", 1);
      expect(d.attempts[0].response_status).toBe(status);
      expect(d.next_attempt_at).toBeNull();
    });
  }

  it("302: a failed attempt, retried on the schedule; the redirect target receives nothing", async () => {
    const { endpoint, event } = await scenario("/moved", (_req, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const d = await waitFor(async () => {
      const x = await deliveryOf(endpoint.id, event.id);
      return x?.attempts.length >= 2 ? x : undefined;
    }, "two attempts at the redirecting endpoint");
    expect(d.attempts.slice(0, 2).map((a: { response_status: number }) => a.response_status)).toEqual([302, 302]);
    expect(d.status).not.toBe("succeeded");
    expect(target.requests).toHaveLength(0);
  });

  it("429 with Retry-After: retried no sooner than asked, then delivered", async () => {
    const { endpoint, event } = await scenario("/slow-down", (_req, res) =>
      received("/slow-down").length === 1 ? res.writeHead(429, { "retry-after": "2" }).end() : res.end("ok"),
    );
    const d = await settled(endpoint.id, event.id, "succeeded", 2);
    expect(d.attempts[0].response_status).toBe(429);
    expect(d.attempts[0].response_headers["retry-after"]).toBe("2");
    expect(Date.parse(d.attempts[1].started_at) - Date.parse(d.attempts[0].started_at)).toBeGreaterThanOrEqual(2_000);
  });

  it("a receiver that hangs past the deadline: the attempt times out and is retried", async () => {
    const { endpoint, event } = await scenario("/hang", (_req, res) => {
      if (received("/hang").length > 1) res.end("ok");
      // else: never answer; the engine gives up at its deadline
    });
    const d = await settled(endpoint.id, event.id, "succeeded", 2);
    expect(d.attempts[0]).toMatchObject({ response_status: null });
    expect(d.attempts[0].error).toMatch(/timeout/);
  });

  it("a connection reset: a network error, retried", async () => {
    const { endpoint, event } = await scenario("/reset", (req, res) => (received("/reset").length === 1 ? req.socket.destroy() : res.end("ok")));
    const d = await settled(endpoint.id, event.id, "succeeded", 2);
    expect(d.attempts[0].response_status).toBeNull();
    expect(d.attempts[0].error).toMatch(/ECONNRESET|socket hang up/i);
  });

  it("a body dripped slowly past the deadline: a timeout, retried", async () => {
    const { endpoint, event } = await scenario("/drip", (_req, res) => {
      if (received("/drip").length > 1) return void res.end("ok");
      res.writeHead(200, { "content-type": "text/plain" });
      let n = 0;
      const timer = setInterval(() => {
        if (res.destroyed || ++n > 20) {
          clearInterval(timer);
          return void res.end();
        }
        res.write(".");
      }, 200);
    });
    const d = await settled(endpoint.id, event.id, "succeeded", 2);
    expect(d.attempts[0].response_status).toBe(200);
    expect(d.attempts[0].error).toMatch(/timeout/);
  });

  it("a body dripped within the deadline is read whole and succeeds", async () => {
    const { endpoint, event } = await scenario("/drip-ok", (_req, res) => {
      res.writeHead(200);
      let n = 0;
      const timer = setInterval(() => {
        if (++n > 4) {
          clearInterval(timer);
          return void res.end("!");
        }
        res.write(String(n));
      }, 50);
    });
    const d = await settled(endpoint.id, event.id, "succeeded", 1);
    expect(d.attempts[0].response_body).toBe("1234!");
  });

  it("reads at most 64 KiB of an answer and records its first 8 KiB", async () => {
    const { endpoint, event } = await scenario("/big", (_req, res) => {
      res.writeHead(200);
      res.end("x".repeat(1024 * 1024));
    });
    const d = await settled(endpoint.id, event.id, "succeeded", 1);
    expect(d.attempts[0].response_body).toBe("x".repeat(8 * 1024));
  });

  it("during a rotation each delivery carries one v1 per valid secret; after it, one", async () => {
    const { endpoint, secret: oldSecret, event } = await scenario("/rotate", (_req, res) => res.end("ok"));
    await settled(endpoint.id, event.id, "succeeded", 1);
    const rotated = await h.post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expires_in_seconds: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = rotated.json.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const replay = await h.post(`/v1/webhook_endpoints/${endpoint.id}/replay`, { event_id: event.id });
    expect(replay.status, replay.text).toBe(202);
    await waitFor(() => received("/rotate").length === 2, "the replay");
    const during = received("/rotate")[1];
    expect(during.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(during.body, during.headers["service-signature"], oldSecret).id).toBe(event.id);
    expect(verifyWebhook(during.body, during.headers["service-signature"], newSecret).id).toBe(event.id);

    const retired = await h.post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expires_in_seconds: 0 });
    const newest = retired.json.secret as string;
    await h.post(`/v1/webhook_endpoints/${endpoint.id}/replay`, { event_id: event.id });
    await waitFor(() => received("/rotate").length === 3, "the second replay");
    const after = received("/rotate")[2];
    expect(after.headers["service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(after.body, after.headers["service-signature"], newest).id).toBe(event.id);
    expect(() => verifyWebhook(after.body, after.headers["service-signature"], newSecret)).toThrow(/No signature matches/);
  });
});
