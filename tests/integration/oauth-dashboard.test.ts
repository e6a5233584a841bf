import { TRPCError } from "@trpc/server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { insertProperty } from "../support/hotel";
import { authorizeCode, exchangeCode, redirectUri, staffSession, tokenRequest } from "../support/oauth";

// OAuth apps and installs in the dashboard (§9): owners and managers only, every change audited,
// a secret shown once, an install revoked stops its tokens at once.

let h: Harness;
const sessions = {} as Record<StaffRole, StaffSession>;
const caller = (role: StaffRole | null) => createCaller({ db: h.db, session: role ? sessions[role] : null, livemode: true });
const roles: StaffRole[] = ["owner", "manager", "front_desk", "housekeeping"];
const allowed = new Set<StaffRole>(["owner", "manager"]);

beforeAll(async () => {
  h = await startHarness();
  for (const role of roles) sessions[role] = await staffSession(h, role);
}, 120_000);
afterAll(async () => h?.close());

async function codeOf(call: Promise<unknown>) {
  const error = await call.then(() => undefined, (e: unknown) => e);
  return error instanceof TRPCError ? error.code : "OK";
}

const newApp = (role: StaffRole = "owner", extra: Record<string, unknown> = {}) =>
  caller(role).oauth.apps.create({ name: "Channel Sync", redirect_uris: [redirectUri], scopes: ["rooms:read", "reservations:read"], ...extra });

describe("role matrix", { timeout: 60_000 }, () => {
  for (const role of roles) {
    it(`${role} ${allowed.has(role) ? "reaches" : "is refused"} every OAuth app and install procedure`, async () => {
      const { app } = await newApp();
      const expectCode = allowed.has(role) ? "OK" : "FORBIDDEN";
      const c = caller(role);
      expect(await codeOf(c.oauth.apps.list())).toBe(expectCode);
      expect(await codeOf(c.oauth.apps.create({ name: "X", redirect_uris: [redirectUri], scopes: ["rooms:read"] }))).toBe(expectCode);
      expect(await codeOf(c.oauth.apps.update({ id: app.id, name: "Renamed" }))).toBe(expectCode);
      expect(await codeOf(c.oauth.apps.rotateSecret({ id: app.id }))).toBe(expectCode);
      expect(await codeOf(c.oauth.installs.list())).toBe(expectCode);
      expect(await codeOf(c.oauth.apps.delete({ id: app.id }))).toBe(expectCode);
      // A refused role changed nothing.
      if (!allowed.has(role)) expect((await caller("owner").oauth.apps.list()).find((a) => a.id === app.id)?.name).toBe("Channel Sync");
    });
  }

  it("refuses a signed-out caller", async () => {
    expect(await codeOf(caller(null).oauth.apps.list())).toBe("UNAUTHORIZED");
    expect(await codeOf(caller(null).oauth.installs.revoke({ id: "inst_x" }))).toBe("UNAUTHORIZED");
  });

  for (const role of ["front_desk", "housekeeping"] as const) {
    it(`${role} cannot revoke an install`, async () => {
      expect(await codeOf(caller(role).oauth.installs.revoke({ id: "inst_x" }))).toBe("FORBIDDEN");
    });
  }
});

describe("apps and installs", { timeout: 60_000 }, () => {
  it("shows a confidential app's secret once, rotates it, and records who did each change", async () => {
    const { app, client_secret } = await newApp("manager");
    expect(client_secret).toMatch(/^appsec_/);
    expect(JSON.stringify(await caller("owner").oauth.apps.list())).not.toContain(client_secret);
    const rotated = await caller("owner").oauth.apps.rotateSecret({ id: app.id });
    expect(rotated.client_secret).not.toBe(client_secret);
    const trail = await h.db.select().from(auditLog).where(eq(auditLog.objectId, app.id));
    expect(trail.map((e) => [e.action, e.actorId])).toEqual(
      expect.arrayContaining([
        ["oauth_app.created", sessions.manager.user.id],
        ["oauth_app.secret_rotated", sessions.owner.user.id],
      ]),
    );
    expect(JSON.stringify(trail)).not.toContain(rotated.client_secret);
  });

  it("the old secret stops working after rotation", async () => {
    const { app, client_secret } = await newApp();
    const property = await insertProperty(h, h.main.account.id);
    const client = { id: app.id, secret: client_secret!, public: false };
    const code = await authorizeCode(h, { client, session: sessions.owner, propertyIds: [property.id] });
    const { client_secret: fresh } = await caller("owner").oauth.apps.rotateSecret({ id: app.id });
    expect((await exchangeCode(h, client, code)).json.error).toBe("invalid_client");
    expect((await exchangeCode(h, { ...client, secret: fresh! }, code)).status).toBe(200);
  });

  it("a public app has no secret to rotate", async () => {
    const { app, client_secret } = await newApp("owner", { public: true });
    expect(client_secret).toBeNull();
    expect(await codeOf(caller("owner").oauth.apps.rotateSecret({ id: app.id }))).toBe("UNPROCESSABLE_CONTENT");
  });

  it("refuses redirect URIs that are not https (except loopback) or carry a fragment", async () => {
    for (const uri of ["http://app.example.com/cb", "https://app.example.com/cb#x", "not a url", "javascript:alert(1)"]) {
      expect(await codeOf(newApp("owner", { redirect_uris: [uri] })), uri).toBe("UNPROCESSABLE_CONTENT");
    }
    expect(await codeOf(newApp("owner", { redirect_uris: ["http://127.0.0.1:9000/cb"] }))).toBe("OK");
  });

  it("another account's app is not found", async () => {
    const other = await h.newAccount("Other Hotels");
    const stranger = await staffSession(h, "owner", other.account.id);
    const { app } = await newApp();
    const foreign = createCaller({ db: h.db, session: stranger, livemode: true });
    expect(await codeOf(foreign.oauth.apps.rotateSecret({ id: app.id }))).toBe("NOT_FOUND");
    expect((await foreign.oauth.apps.list()).map((a) => a.id)).not.toContain(app.id);
  });

  it("lists installs with app, scopes, properties, installer and last use; revoking one stops its tokens at once", async () => {
    const { app, client_secret } = await newApp();
    const property = await insertProperty(h, h.main.account.id, { name: "Harbor View" });
    const client = { id: app.id, secret: client_secret!, public: false };
    const code = await authorizeCode(h, { client, session: sessions.manager, propertyIds: [property.id] });
    const tokens = (await exchangeCode(h, client, code)).json;
    expect((await h.get("/v1/properties", { token: tokens.access_token })).status).toBe(200);
    const install = (await caller("owner").oauth.installs.list()).find((i) => i.app.id === app.id)!;
    expect(install).toMatchObject({
      app: { name: "Channel Sync" },
      scopes: ["reservations:read", "rooms:read"],
      properties: [{ id: property.id, name: "Harbor View", livemode: true }],
      installed_by: sessions.manager.user.email,
    });
    expect(install.last_used_at).not.toBeNull();
    expect(await codeOf(caller("front_desk").oauth.installs.revoke({ id: install.id }))).toBe("FORBIDDEN");
    expect((await h.get("/v1/properties", { token: tokens.access_token })).status).toBe(200);
    await caller("manager").oauth.installs.revoke({ id: install.id });
    expect((await h.get("/v1/properties", { token: tokens.access_token })).status).toBe(401);
    const refreshed = await tokenRequest(h, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: client.id, client_secret: client.secret });
    expect(refreshed.json.error).toBe("invalid_grant");
    expect((await caller("owner").oauth.installs.list()).map((i) => i.id)).not.toContain(install.id);
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, install.id), eq(auditLog.action, "oauth_install.revoked")));
    expect(entry.actorId).toBe(sessions.manager.user.id);
    expect(await codeOf(caller("owner").oauth.installs.revoke({ id: install.id }))).toBe("NOT_FOUND");
  });

  it("deleting an app revokes its installs", async () => {
    const { app, client_secret } = await newApp();
    const property = await insertProperty(h, h.main.account.id);
    const client = { id: app.id, secret: client_secret!, public: false };
    const tokens = (await exchangeCode(h, client, await authorizeCode(h, { client, session: sessions.owner, propertyIds: [property.id] }))).json;
    await caller("owner").oauth.apps.delete({ id: app.id });
    expect((await h.get("/v1/properties", { token: tokens.access_token })).status).toBe(401);
  });
});
