import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { changesFrom } from "@/server/changes";
import { webhookEndpoints, webhookSecrets } from "@/db/schema";
import type { EventType } from "@/server/events/types";
import { newId, randomToken } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { resumeDeliveries } from "./fan-out";
import { deliveriesQueued } from "./queue";
import { openSecret, sealSecret } from "./secret-box";
import { newSigningSecret } from "./signing";
import { assertUrlAllowed, type Lookup } from "./url-guard";

/** How the URL of an endpoint is checked at registration (from the engine's settings). */
export type UrlPolicy = { blockPrivateNetworks: boolean; lookup?: Lookup };

export type EndpointCreate = { url: string; description?: string | null; enabled_events: ("*" | EventType)[]; api_version?: string };
export type EndpointUpdate = Partial<EndpointCreate>;

const resource = "webhook endpoint";
/** `["*"]` stands alone: a selector with "*" and types is just "*". */
const normalizeEvents = (list: string[]) => (list.includes("*") ? ["*"] : [...new Set(list)]);

export async function createEndpoint({ db, tenant, input, version, policy }: Ctx & { input: EndpointCreate; version: string; policy: UrlPolicy }) {
  const url = await assertUrlAllowed(input.url, policy);
  const secret = newSigningSecret();
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        id: newId("webhookEndpoint"),
        ...tenantValues(tenant),
        url: url.toString(),
        description: input.description ?? null,
        enabledEvents: normalizeEvents(input.enabled_events),
        apiVersion: input.api_version ?? version,
      })
      .returning();
    await tx.insert(webhookSecrets).values(secretRow(endpoint.id, secret));
    return { endpoint, secret };
  });
}

export const getEndpoint = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, webhookEndpoints, tenant, id, resource);

export async function listEndpoints({ db, tenant, page }: Ctx & { page: PageRequest }) {
  return listOwned(db, webhookEndpoints, tenant, page);
}

export async function updateEndpoint({ db, tenant, id, input, policy }: Ctx & { id: string; input: EndpointUpdate; policy: UrlPolicy }) {
  const current = await getEndpoint({ db, tenant, id });
  const url = input.url !== undefined ? (await assertUrlAllowed(input.url, policy)).toString() : current.url;
  const changes = changesFrom(current, {
    url,
    description: input.description === undefined ? current.description : input.description,
    enabledEvents: input.enabled_events ? normalizeEvents(input.enabled_events) : current.enabledEvents,
    apiVersion: input.api_version ?? current.apiVersion,
  });
  if (!changes) return current;
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, current.id))
    .returning();
  return updated;
}

/** A secret's row, the secret sealed (secret-box.ts). */
function secretRow(endpointId: string, secret: string) {
  const id = `whs_${randomToken(24)}`;
  return { id, endpointId, secret: sealSecret(secret, id) };
}

/** Deletes the endpoint with its secrets, deliveries and attempts: nothing more is sent to it. */
export async function deleteEndpoint({ db, tenant, id }: Ctx & { id: string }) {
  const endpoint = await getEndpoint({ db, tenant, id });
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
  return { id: endpoint.id, object: "webhook_endpoint" as const, deleted: true as const };
}

/**
 * A new secret; the ones in use stay valid for `expiresInSeconds` more (0: retired now), and
 * until then every delivery carries one `v1=` per valid secret.
 */
export async function rotateSecret({ db, tenant, id, expiresInSeconds }: Ctx & { id: string; expiresInSeconds: number }) {
  const endpoint = await getEndpoint({ db, tenant, id });
  const secret = newSigningSecret();
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookSecrets)
      .set({ expiresAt })
      .where(
        and(
          eq(webhookSecrets.endpointId, endpoint.id),
          or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, sql`${expiresAt.toISOString()}::timestamptz`)),
        ),
      );
    await tx.insert(webhookSecrets).values(secretRow(endpoint.id, secret));
  });
  return { endpoint, secret };
}

/** Re-enables the endpoint; the deliveries that waited for it go out now. */
export async function enableEndpoint({ db, tenant, id }: Ctx & { id: string }) {
  const endpoint = await getEndpoint({ db, tenant, id });
  if (endpoint.status === "enabled") return endpoint;
  const now = new Date();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ status: "enabled", disabledReason: null, disabledAt: null, enabledAt: now, updatedAt: now })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  const resumed = await resumeDeliveries(db, endpoint.id);
  await deliveriesQueued(resumed, `resume-${now.getTime()}`);
  return updated;
}

/** Disables the endpoint by hand: no attempts while disabled; its deliveries wait. */
export async function disableEndpoint({ db, tenant, id }: Ctx & { id: string }) {
  const endpoint = await getEndpoint({ db, tenant, id });
  if (endpoint.status === "disabled") return endpoint;
  const now = new Date();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({ status: "disabled", disabledReason: "manual", disabledAt: now, updatedAt: now })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return updated;
}

/** The endpoint's signing secrets still valid, newest first (the dashboard's "reveal"; more than one during a rotation). */
export async function listSecrets({ db, tenant, id }: Ctx & { id: string }) {
  const endpoint = await getEndpoint({ db, tenant, id });
  const rows = await db
    .select({ id: webhookSecrets.id, secret: webhookSecrets.secret, createdAt: webhookSecrets.createdAt, expiresAt: webhookSecrets.expiresAt })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.endpointId, endpoint.id), or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, sql`now()`))))
    .orderBy(desc(webhookSecrets.createdAt));
  return rows.map(({ id, secret, ...row }) => ({ ...row, secret: openSecret(secret, id) }));
}
