import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { changesFrom } from "@/server/changes";
import { webhookEndpoints, webhookSecrets } from "@/db/schema";
import type { EventType } from "@/server/events/types";
import { newId, randomToken } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import type { Executor } from "@/db/client";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { presentEndpoint } from "./present";
import { resumeDeliveries } from "@/server/webhooks/fan-out";
import { deliveriesQueued } from "@/server/webhooks/queue";
import { openSecret, sealSecret } from "@/server/webhooks/secret-box";
import { newSigningSecret } from "@/server/webhooks/signing";
import { assertUrlAllowed, type UrlPolicy } from "@/server/url-guard";

export type { UrlPolicy };

export type EndpointCreate = { url: string; description?: string | null; enabled_events: ("*" | EventType)[]; api_version?: string };
export type EndpointUpdate = Partial<EndpointCreate>;

const resource = "webhook endpoint";
type Endpoint = typeof webhookEndpoints.$inferSelect;
/** `["*"]` stands alone: a selector with "*" and types is just "*". */
const normalizeEvents = (list: string[]) => (list.includes("*") ? ["*"] : [...new Set(list)]);

/**
 * An endpoint's trail entry (`webhook_endpoint.<verb>`) in the change's transaction: the endpoint
 * before and after as the API presents it, or what was done (`after`, for an action). Never a secret.
 */
const endpointAudit = (
  tx: Executor,
  who: Pick<ChangeCtx, "tenant" | "actor">,
  verb: string,
  id: string,
  sides: { before?: Endpoint; after?: Endpoint | Record<string, unknown> } = {},
) =>
  audit(tx, who, {
    action: `webhook_endpoint.${verb}`,
    objectType: "webhook_endpoint",
    objectId: id,
    ...(sides.before && { before: presentEndpoint(sides.before) }),
    ...(sides.after && { after: "enabledEvents" in sides.after ? presentEndpoint(sides.after as Endpoint) : sides.after }),
  });

export async function createEndpoint({
  db,
  tenant,
  actor,
  input,
  version,
  policy,
}: ChangeCtx & { input: EndpointCreate; version: string; policy: UrlPolicy }) {
  const url = await assertUrlAllowed(input.url, policy);
  const secret = newSigningSecret();
  return inTransaction(db, async (tx) => {
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
    await endpointAudit(tx, { tenant, actor }, "created", endpoint.id, { after: endpoint });
    return { endpoint, secret };
  });
}

export const getEndpoint = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, webhookEndpoints, tenant, id, resource);

export async function listEndpoints({ db, tenant, page }: Ctx & { page: PageRequest }) {
  return listOwned(db, webhookEndpoints, tenant, page);
}

export async function updateEndpoint({ db, tenant, actor, id, input, policy }: ChangeCtx & { id: string; input: EndpointUpdate; policy: UrlPolicy }) {
  // The URL is checked (a DNS lookup) before the endpoint is locked, not while it is.
  const url = input.url !== undefined ? (await assertUrlAllowed(input.url, policy)).toString() : undefined;
  return inTransaction(db, async (tx) => {
    const current = await findOwned(tx, webhookEndpoints, tenant, id, resource, { forUpdate: true });
    const changes = changesFrom(current, {
      url: url ?? current.url,
      description: input.description === undefined ? current.description : input.description,
      enabledEvents: input.enabled_events ? normalizeEvents(input.enabled_events) : current.enabledEvents,
      apiVersion: input.api_version ?? current.apiVersion,
    });
    if (!changes) return current;
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    await endpointAudit(tx, { tenant, actor }, "updated", current.id, { before: current, after: updated });
    return updated;
  });
}

/** A secret's row, the secret sealed (secret-box.ts). */
function secretRow(endpointId: string, secret: string) {
  const id = `whs_${randomToken(24)}`;
  return { id, endpointId, secret: sealSecret(secret, id) };
}

/** Deletes the endpoint with its secrets, deliveries and attempts: nothing more is sent to it. The trail keeps it as deleted. */
export async function deleteEndpoint({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const endpoint = await findOwned(tx, webhookEndpoints, tenant, id, resource);
    const [deleted] = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).returning();
    if (deleted) await endpointAudit(tx, { tenant, actor }, "deleted", deleted.id, { before: deleted });
    return { id: endpoint.id, object: "webhook_endpoint" as const, deleted: true as const };
  });
}

/**
 * A new secret; the ones in use stay valid for `expiresInSeconds` more (0: retired now), and
 * until then every delivery carries one `v1=` per valid secret. The trail says when the old ones
 * expire, never a secret.
 */
export async function rotateSecret({ db, tenant, actor, id, expiresInSeconds }: ChangeCtx & { id: string; expiresInSeconds: number }) {
  const secret = newSigningSecret();
  const expiresAt = new Date(Date.now() + expiresInSeconds * 1000);
  const endpoint = await inTransaction(db, async (tx) => {
    const endpoint = await findOwned(tx, webhookEndpoints, tenant, id, resource, { forUpdate: true });
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
    await endpointAudit(tx, { tenant, actor }, "secret_rotated", endpoint.id, { after: { previous_secrets_expire_at: expiresAt.toISOString() } });
    return endpoint;
  });
  return { endpoint, secret, previousExpireAt: expiresAt };
}

/** Re-enables the endpoint; the deliveries that waited for it go out now (queued once it commits). */
export async function enableEndpoint({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  const now = new Date();
  const { updated, resumed } = await inTransaction(db, async (tx) => {
    const endpoint = await findOwned(tx, webhookEndpoints, tenant, id, resource, { forUpdate: true });
    if (endpoint.status === "enabled") return { updated: endpoint, resumed: null };
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ status: "enabled", disabledReason: null, disabledAt: null, enabledAt: now, updatedAt: now })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    const resumed = await resumeDeliveries(tx, endpoint.id);
    await endpointAudit(tx, { tenant, actor }, "enabled", endpoint.id, { before: endpoint, after: updated });
    return { updated, resumed };
  });
  if (resumed) await deliveriesQueued(resumed, `resume-${now.getTime()}`);
  return updated;
}

/** Disables the endpoint by hand: no attempts while disabled; its deliveries wait. */
export async function disableEndpoint({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const endpoint = await findOwned(tx, webhookEndpoints, tenant, id, resource, { forUpdate: true });
    if (endpoint.status === "disabled") return endpoint;
    const now = new Date();
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({ status: "disabled", disabledReason: "manual", disabledAt: now, updatedAt: now })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    await endpointAudit(tx, { tenant, actor }, "disabled", endpoint.id, { before: endpoint, after: updated });
    return updated;
  });
}

/**
 * The endpoint's signing secrets still valid, newest first (the dashboard's "reveal"; more than
 * one during a rotation). Every reveal is on the trail, written before the secrets are handed out.
 */
export async function revealSecrets({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const endpoint = await findOwned(tx, webhookEndpoints, tenant, id, resource);
    const rows = await tx
      .select({ id: webhookSecrets.id, secret: webhookSecrets.secret, createdAt: webhookSecrets.createdAt, expiresAt: webhookSecrets.expiresAt })
      .from(webhookSecrets)
      .where(and(eq(webhookSecrets.endpointId, endpoint.id), or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, sql`now()`))))
      .orderBy(desc(webhookSecrets.createdAt));
    await endpointAudit(tx, { tenant, actor }, "secret_revealed", endpoint.id);
    return rows.map(({ id, secret, ...row }) => ({ ...row, secret: openSecret(secret, id) }));
  });
}
