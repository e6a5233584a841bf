import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Innkeep, { SignatureVerificationError } from "@innkeep/node";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// Real deliveries from the server (in-process dispatcher, a node:http receiver), verified with
// the client library's webhook helpers, on Node's crypto and on WebCrypto.

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;
let innkeep: Innkeep;

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
  innkeep = new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl });
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

let guests = 0;
/** Creates a guest and waits for the delivery of its guest.created event at `path`. */
async function deliveryTo(path: string) {
  const guest = await innkeep.guests.create({ first_name: "Web", last_name: "Hook", email: `hook${++guests}@example.com` });
  return waitFor(() => receiver.requests.find((r) => r.url === path && r.body.includes(guest.id)), "a delivery");
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return error as SignatureVerificationError;
  }
  return expect.fail("verification should have refused");
};
const asyncRefusal = async (run: () => Promise<unknown>) => {
  const error = await run().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SignatureVerificationError);
  return error as SignatureVerificationError;
};

describe("Innkeep.webhooks", () => {
  it("verifies real deliveries and refuses each kind of forgery with its reason", async () => {
    const endpoint = await innkeep.webhookEndpoints.create({ url: `${receiver.url}/a`, enabled_events: ["guest.created"] });
    const secret = endpoint.secret;
    const delivery = await deliveryTo("/a");
    const header = delivery.headers["service-signature"] as string;

    const event = Innkeep.webhooks.constructEvent(delivery.body, header, secret);
    expect(event).toMatchObject({ object: "event", type: "guest.created" });
    if (event.type === "guest.created") expect(event.data.object.object).toBe("guest");
    expect(await Innkeep.webhooks.constructEventAsync(new TextEncoder().encode(delivery.body), header, secret)).toEqual(event);

    const tampered = delivery.body.replace('"Web"', '"Bew"');
    expect(tampered).not.toBe(delivery.body);
    expect(refusal(() => Innkeep.webhooks.constructEvent(tampered, header, secret)).reason).toBe("no_matching_signature");
    expect((await asyncRefusal(() => Innkeep.webhooks.constructEventAsync(tampered, header, secret))).reason).toBe("no_matching_signature");

    const t = Number(/t=(\d+)/.exec(header)![1]);
    const stale = refusal(() => Innkeep.webhooks.constructEvent(delivery.body, header, secret, { now: t + 301 }));
    expect(stale.reason).toBe("timestamp_outside_tolerance");
    expect(stale.message).toContain("300 seconds");
    expect(Innkeep.webhooks.constructEvent(delivery.body, header, secret, { now: t + 299 }).id).toBe(event.id);

    const noV1 = header.split(",").filter((p) => !p.startsWith("v1=")).join(",");
    expect(refusal(() => Innkeep.webhooks.constructEvent(delivery.body, noV1, secret)).reason).toBe("missing_signature");
    const noT = header.split(",").filter((p) => !p.startsWith("t=")).join(",");
    expect(refusal(() => Innkeep.webhooks.constructEvent(delivery.body, noT, secret)).reason).toBe("missing_timestamp");
    expect(refusal(() => Innkeep.webhooks.constructEvent(delivery.body, undefined, secret)).reason).toBe("missing_header");
    expect(refusal(() => Innkeep.webhooks.constructEvent(delivery.body, header, "whsec_wrong")).reason).toBe("no_matching_signature");
    expect((await asyncRefusal(() => Innkeep.webhooks.constructEventAsync(delivery.body, header, "whsec_wrong"))).reason).toBe("no_matching_signature");
  });

  it("during a secret rotation both the old and the new secret verify a delivery", async () => {
    const endpoint = await innkeep.webhookEndpoints.create({ url: `${receiver.url}/b`, enabled_events: ["guest.created"] });
    const rotated = await innkeep.webhookEndpoints.rotateSecret(endpoint.id, { expires_in_seconds: 3600 });
    expect(rotated.secret).not.toBe(endpoint.secret);
    const delivery = await deliveryTo("/b");
    const header = delivery.headers["service-signature"] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(Innkeep.webhooks.constructEvent(delivery.body, header, secret).type).toBe("guest.created");
      expect((await Innkeep.webhooks.constructEventAsync(delivery.body, header, secret)).type).toBe("guest.created");
    }
  });

  it("generateTestHeader signs as the server does, so a receiver can test itself", async () => {
    const payload = JSON.stringify({ id: "evt_test", object: "event", type: "guest.created", data: { object: {} } });
    const header = Innkeep.webhooks.generateTestHeader({ payload, secret: "whsec_test" });
    expect(Innkeep.webhooks.constructEvent(payload, header, "whsec_test").id).toBe("evt_test");
    expect(await Innkeep.webhooks.generateTestHeaderAsync({ payload, secret: "whsec_test", timestamp: 1_700_000_000 })).toBe(
      Innkeep.webhooks.generateTestHeader({ payload, secret: "whsec_test", timestamp: 1_700_000_000 }),
    );
    // The server's own check accepts what the client generates (one signing scheme, two ends).
    const { verifyWebhook } = await import("@/server/webhooks/verify-signature");
    expect(verifyWebhook<{ id: string }>(payload, header, "whsec_test").id).toBe("evt_test");
  });
});
