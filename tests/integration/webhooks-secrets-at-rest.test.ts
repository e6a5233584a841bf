import { createCipheriv, createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookSecrets } from "@/db/schema";
import { getConfig, type Config } from "@/server/config";
import { checkStartupConfig } from "@/server/process/start";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { openSecret, resealSecrets, secretKeyRing } from "@/server/webhooks/secret-box";
import { parseSecretKeys } from "@/server/secret-keys";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// Signing secrets are sealed with AES-256-GCM under WEBHOOK_SECRET_KEYS (the test run's key is
// `test:` in vitest.config.ts): the database row never holds the secret, deliveries still carry a
// signature the integrator's copy of the secret verifies, and a rotated key still opens old rows.

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;

// Two keys written out by hand (32 bytes each): "A" × 32 and "B" × 32.
const keyA = Buffer.alloc(32, "A").toString("base64");
const keyB = Buffer.alloc(32, "B").toString("base64");

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

const storedRows = (endpointId: string) => h.db.select().from(webhookSecrets).where(eq(webhookSecrets.endpointId, endpointId));

/** The specification's signature: hex HMAC-SHA256 of `<t>.<raw body>` keyed with the whole `whsec_…` string. */
function verifies(header: string, body: string, secret: string) {
  const t = /t=(\d+)/.exec(header)![1];
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
  return header.split(",").includes(`v1=${expected}`);
}

async function deliveredTo(path: string, secret: string) {
  const guest = await h.post("/v1/guests", { first_name: "Sealed", last_name: "Secret", email: `sealed${Math.random().toString(36).slice(2)}@example.com` });
  expect(guest.status, guest.text).toBe(201);
  const request = await waitFor(() => receiver.requests.find((r) => r.url === path && r.body.includes(guest.json.id)), `a delivery to ${path}`);
  return verifies(request.headers["service-signature"] as string, request.body, secret);
}

describe("webhook signing secrets at rest", () => {
  it("stores no secret in the row, and the delivery verifies with the secret the integrator was shown", async () => {
    const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/sealed`, enabled_events: ["guest.created"] });
    expect(created.status, created.text).toBe(201);
    const secret: string = created.json.secret;
    expect(secret).toMatch(/^whsec_/);

    const [row] = await storedRows(created.json.id);
    expect(row.secret).not.toContain(secret);
    expect(row.secret).not.toContain(secret.slice("whsec_".length, "whsec_".length + 12));
    expect(row.secret.startsWith("aesgcm1:test:")).toBe(true);

    expect(await deliveredTo("/sealed", secret)).toBe(true);
  });

  it("keeps old and new secrets sealed through a rotation, and signs with both", async () => {
    const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/rotated`, enabled_events: ["guest.created"] });
    const rotated = await h.post(`/v1/webhook_endpoints/${created.json.id}/rotate_secret`, { expires_in_seconds: 3600 });
    expect(rotated.status, rotated.text).toBe(200);
    const rows = await storedRows(created.json.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.secret).not.toContain(created.json.secret);
      expect(row.secret).not.toContain(rotated.json.secret);
    }
    expect(await deliveredTo("/rotated", created.json.secret)).toBe(true);
    expect(await deliveredTo("/rotated", rotated.json.secret)).toBe(true);
  });

  it("seals a row stored plain before encryption at start, and its deliveries verify throughout", async () => {
    const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/legacy`, enabled_events: ["guest.created"] });
    const [row] = await storedRows(created.json.id);
    // A row as version 0.x stored it: the plain secret.
    const legacy = "whsec_legacyPlainSecretFromBeforeEncryption0000";
    await h.db.update(webhookSecrets).set({ secret: legacy }).where(eq(webhookSecrets.id, row.id));
    expect(await deliveredTo("/legacy", legacy)).toBe(true);

    expect((await resealSecrets(h.db)).rewritten).toBeGreaterThanOrEqual(1);
    const [after] = await storedRows(created.json.id);
    expect(after.secret).not.toContain(legacy);
    expect(after.secret.startsWith("aesgcm1:test:")).toBe(true);
    expect(await deliveredTo("/legacy", legacy)).toBe(true);
    // A second start finds nothing left to do for this row.
    await resealSecrets(h.db);
    expect((await storedRows(created.json.id))[0].secret).toBe(after.secret);
  });

  it("opens a value sealed under an older key while the old key is listed, and re-seals it under the new one", async () => {
    const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/keys`, enabled_events: ["guest.created"] });
    const [row] = await storedRows(created.json.id);
    const secret: string = created.json.secret;
    // Sealed by hand under key A as the format says: aesgcm1:<key id>:<nonce>:<ciphertext>:<tag>, the row id as additional data.
    const nonce = Buffer.alloc(12, 7);
    const cipher = createCipheriv("aes-256-gcm", Buffer.alloc(32, "A"), nonce).setAAD(Buffer.from(row.id));
    const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    const underA = ["aesgcm1", "a", nonce.toString("base64url"), ciphertext.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(":");
    await h.db.update(webhookSecrets).set({ secret: underA }).where(eq(webhookSecrets.id, row.id));

    const rotatedRing = parseSecretKeys(`b:${keyB},a:${keyA}`);
    expect(openSecret(underA, row.id, rotatedRing)).toBe(secret);
    // Without key A it cannot be read; altered or moved to another row, it does not open.
    expect(() => openSecret(underA, row.id, parseSecretKeys(`b:${keyB}`))).toThrow(/key "a"/);
    expect(() => openSecret(underA, "whs_another_row", rotatedRing)).toThrow();
    expect(() => openSecret(underA.replace(/:([^:]+)$/, ":AAAAAAAAAAAAAAAAAAAAAA"), row.id, rotatedRing)).toThrow();

    // A start with key B first and A (and the run's key) still listed re-seals every row under B.
    const runKey = process.env.WEBHOOK_SECRET_KEYS!;
    expect(await resealSecrets(h.db, parseSecretKeys(`b:${keyB},a:${keyA},${runKey}`))).toMatchObject({ unreadable: 0 });
    const [after] = await storedRows(created.json.id);
    expect(after.secret.startsWith("aesgcm1:b:")).toBe(true);
    expect(openSecret(after.secret, row.id, parseSecretKeys(`b:${keyB}`))).toBe(secret);
    // A start without key B leaves the rows it cannot open as they are and says how many.
    const stranded = await resealSecrets(h.db, parseSecretKeys(runKey));
    expect(stranded.rewritten).toBe(0);
    expect(stranded.unreadable).toBeGreaterThanOrEqual(1);
    expect((await storedRows(created.json.id))[0].secret).toBe(after.secret);
    // Put back under the run's key so that the dispatcher can sign with it.
    await resealSecrets(h.db, parseSecretKeys(`${runKey},b:${keyB}`));
    expect(await deliveredTo("/keys", secret)).toBe(true);
  });
});

describe("WEBHOOK_SECRET_KEYS", () => {
  const config = (overrides: Partial<Config>): Config => ({ ...getConfig(), ...overrides });

  it("is required to start in production, and read as keyid:base64key entries of 32 bytes", () => {
    expect(() => checkStartupConfig(config({ NODE_ENV: "production", NEXTAUTH_SECRET: "x".repeat(32), WEBHOOK_SECRET_KEYS: undefined }))).toThrow(/WEBHOOK_SECRET_KEYS is required/);
    expect(() => checkStartupConfig(config({ NODE_ENV: "production", NEXTAUTH_SECRET: "x".repeat(32), WEBHOOK_SECRET_KEYS: `k1:${keyA}` }))).not.toThrow();
    expect(() => secretKeyRing(config({ NODE_ENV: "production", WEBHOOK_SECRET_KEYS: undefined }))).toThrow(/required in production/);
    expect(() => parseSecretKeys(`k1:${Buffer.alloc(16).toString("base64")}`)).toThrow(/16 bytes/);
    expect(() => parseSecretKeys(keyA)).toThrow(/keyid:base64key/);
    expect(() => parseSecretKeys(`k1:${keyA},k1:${keyB}`)).toThrow(/twice/);
    const ring = parseSecretKeys(`new:${keyB}, old:${keyA}`);
    expect(ring.primary.id).toBe("new");
    expect([...ring.byId.keys()]).toEqual(["new", "old"]);
  });
});
