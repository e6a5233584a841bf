import { eq } from "drizzle-orm";
import { z } from "zod";
import { accounts } from "@/db/schema";
import { getApiKey, issueApiKey, listApiKeys, presentApiKey, withdrawApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { ApiError } from "@/server/errors";
import { getEvent, listEvents } from "@/server/events/events";
import { presentEvent } from "@/server/events/present";
import { eventTypes } from "@/server/events/types";
import { access } from "@/lib/access";
import { createBackfill, presentBackfill } from "@/server/webhook-endpoints/backfills";
import {
  backfillProgress,
  deliveriesOfEvent,
  deliveryOutcomes,
  getDeliveryDetail,
  listDeliveryLog,
  outcomeOf,
  recentBackfills,
  statusClasses,
} from "@/server/webhook-endpoints/delivery-log";
import { getDelivery } from "@/server/webhook-endpoints/deliveries";
import { attemptsPerHour, endpointStats } from "@/server/webhook-endpoints/endpoint-stats";
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  revealSecrets,
  rotateSecret,
  updateEndpoint,
  type UrlPolicy,
} from "@/server/webhook-endpoints/endpoints";
import { listOutbox, outboxState, resendMail, type OutboxMail } from "@/server/webhook-endpoints/outbox";
import { presentDeliveryDetail, presentEndpoint, presentEndpointHealth, presentLogRow } from "@/server/webhook-endpoints/present";
import { replayEvent } from "@/server/webhook-endpoints/replay";
import { backfillCreateSchema, endpointCreateSchema, endpointUpdateSchema, rotateSecretSchema } from "@/server/webhook-endpoints/schemas";
import { mailServerSet } from "@/server/webhooks/mail-settings";
import { webhookSettings } from "@/server/webhooks/settings";
import { sendTestEvent } from "@/server/webhook-endpoints/test-event";
import type { Db } from "@/db/client";
import type { Tenant } from "@/server/tenancy";
import { roles, router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

// The developer console: the same services as /v1's webhooks, events and keys; tRPC adds transport, not rules.
const devProcedure = staffProcedure.use(roles(...access.developers));
const id = z.string().min(1).max(64);
const time = z.iso.datetime({ offset: true });
const policy = (): UrlPolicy => ({ blockPrivateNetworks: webhookSettings().blockPrivateNetworks });

type DevCtx = { db: Db; tenant: Tenant };

async function withHealth(ctx: DevCtx, endpoint: Awaited<ReturnType<typeof getEndpoint>>) {
  const stats = await endpointStats({ db: ctx.db, tenant: ctx.tenant, endpointIds: [endpoint.id] });
  return presentEndpointHealth(endpoint, stats.get(endpoint.id));
}

const webhooksRouter = router({
  list: devProcedure.input(z.strictObject({ ...listInput })).query(async ({ ctx, input }) => {
    const list = cursorList("developers.webhooks.list", {}, input);
    const page = await listEndpoints({ db: ctx.db, tenant: ctx.tenant, page: list.page });
    const stats = await endpointStats({ db: ctx.db, tenant: ctx.tenant, endpointIds: page.data.map((e) => e.id) });
    return list.envelope(page, (e) => presentEndpointHealth(e, stats.get(e.id)));
  }),
  get: devProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => withHealth(ctx, await getEndpoint({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  create: devProcedure.input(endpointCreateSchema).mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createEndpoint({
      db: ctx.db,
      tenant: ctx.tenant,
      actor: ctx.actor,
      input,
      version: input.api_version ?? (await accountVersion(ctx)),
      policy: policy(),
    });
    return { ...presentEndpoint(endpoint), secret };
  }),
  update: devProcedure
    .input(endpointUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...body } }) =>
      presentEndpoint(await updateEndpoint({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input: body, policy: policy() })),
    ),
  delete: devProcedure
    .input(z.strictObject({ id }))
    .mutation(({ ctx, input }) => deleteEndpoint({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })),
  /** The secrets in force (more than one during a rotation). A mutation: every reveal is in the audit trail. */
  revealSecret: devProcedure.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => {
    const secrets = await revealSecrets({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return secrets.map((s) => ({ secret: s.secret, created_at: s.createdAt.toISOString(), expires_at: s.expiresAt?.toISOString() ?? null }));
  }),
  rotateSecret: devProcedure.input(rotateSecretSchema.extend({ id })).mutation(async ({ ctx, input }) => {
    const { secret, previousExpireAt } = await rotateSecret({
      db: ctx.db,
      tenant: ctx.tenant,
      actor: ctx.actor,
      id: input.id,
      expiresInSeconds: input.expires_in_seconds,
    });
    return { secret, previous_secrets_expire_at: previousExpireAt.toISOString() };
  }),
  enable: devProcedure
    .input(z.strictObject({ id }))
    .mutation(async ({ ctx, input }) => presentEndpoint(await enableEndpoint({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id }))),
  disable: devProcedure
    .input(z.strictObject({ id }))
    .mutation(async ({ ctx, input }) => presentEndpoint(await disableEndpoint({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id }))),
  sendTest: devProcedure
    .input(z.strictObject({ id }))
    .mutation(({ ctx, input }) => sendTestEvent({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, endpointId: input.id })),
  attemptsPerHour: devProcedure
    .input(z.strictObject({ id, hours: z.number().int().min(1).max(72).default(24) }))
    .query(({ ctx, input }) => attemptsPerHour({ db: ctx.db, tenant: ctx.tenant, endpointId: input.id, hours: input.hours })),
  backfills: devProcedure.input(z.strictObject({ endpoint_id: id })).query(async ({ ctx, input }) => {
    await getEndpoint({ db: ctx.db, tenant: ctx.tenant, id: input.endpoint_id });
    return (await recentBackfills({ db: ctx.db, tenant: ctx.tenant, endpointId: input.endpoint_id })).map(presentBackfill);
  }),
  backfill: devProcedure
    .input(backfillCreateSchema.extend({ endpoint_id: id }))
    .mutation(async ({ ctx, input: { endpoint_id, ...body } }) =>
      presentBackfill(await createBackfill({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, endpointId: endpoint_id, input: body })),
    ),
  /** A backfill's progress: events queued so far, and their deliveries sent, failed and waiting. */
  backfillProgress: devProcedure.input(z.strictObject({ endpoint_id: id, id })).query(async ({ ctx, input }) => {
    const p = await backfillProgress({ db: ctx.db, tenant: ctx.tenant, endpointId: input.endpoint_id, id: input.id });
    return { ...presentBackfill(p.backfill), sent: p.sent, failed: p.failed, waiting: p.waiting, finished: p.finished };
  }),
});

/** Endpoints made in the dashboard take the account's pinned API version, as a request without a version header does. */
async function accountVersion(ctx: DevCtx) {
  const [account] = await ctx.db.select({ apiVersion: accounts.apiVersion }).from(accounts).where(eq(accounts.id, ctx.tenant.accountId));
  return account.apiVersion;
}

const deliveryFilters = z.strictObject({
  endpoint_id: id.optional(),
  event_id: id.optional(),
  outcome: z.enum(deliveryOutcomes).optional(),
  event_type: z.string().min(1).max(64).optional(),
  status_class: z.enum(statusClasses).optional(),
  created_gte: time.optional(),
  created_lte: time.optional(),
});

const deliveriesRouter = router({
  list: devProcedure.input(deliveryFilters.extend(listInput)).query(async ({ ctx, input: { limit, cursor, ...filters } }) => {
    const list = cursorList("developers.deliveries.list", filters, { limit, cursor });
    return list.envelope(await listDeliveryLog({ db: ctx.db, tenant: ctx.tenant, filters, page: list.page }), presentLogRow);
  }),
  get: devProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => presentDeliveryDetail(await getDeliveryDetail({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  /** Replay: a new delivery of the same event to the same endpoint (the API's replay). */
  replay: devProcedure.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => {
    const delivery = await getDelivery({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    return replayEvent({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, endpointId: delivery.endpointId, eventId: delivery.eventId });
  }),
});

const eventsRouter = router({
  list: devProcedure
    .input(z.strictObject({ type: z.enum(eventTypes).optional(), created_gte: time.optional(), created_lte: time.optional(), ...listInput }))
    .query(async ({ ctx, input: { limit, cursor, ...filters } }) => {
      const list = cursorList("developers.events.list", filters, { limit, cursor });
      return list.envelope(await listEvents({ db: ctx.db, tenant: ctx.tenant, filters, page: list.page }), presentEvent);
    }),
  /** One event with the endpoints it went to and how each delivery stands. */
  get: devProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const event = await getEvent({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    const deliveries = await deliveriesOfEvent({ db: ctx.db, tenant: ctx.tenant, eventId: event.id });
    return {
      ...presentEvent(event),
      deliveries: deliveries.map(({ delivery: d, endpointUrl, endpointStatus }) => ({
        id: d.id,
        endpoint_id: d.endpointId,
        endpoint_url: endpointUrl,
        source: d.source,
        status: d.status,
        outcome: outcomeOf(d.status, endpointStatus),
        attempt_count: d.attemptCount,
        created_at: d.createdAt.toISOString(),
      })),
    };
  }),
  /** Replays the event to the given endpoints, or to every endpoint it went to. */
  replay: devProcedure
    .input(z.strictObject({ event_id: id, endpoint_ids: z.array(id).min(1).max(100).optional() }))
    .mutation(async ({ ctx, input }) => {
      const event = await getEvent({ db: ctx.db, tenant: ctx.tenant, id: input.event_id });
      const targets = input.endpoint_ids ?? [
        ...new Set((await deliveriesOfEvent({ db: ctx.db, tenant: ctx.tenant, eventId: event.id })).map((r) => r.delivery.endpointId)),
      ];
      if (!targets.length)
        throw new ApiError("parameter_invalid", "This event went to no endpoint; choose one to replay it to.", { param: "endpoint_ids" });
      const results = [];
      for (const endpointId of targets) {
        const result = await replayEvent({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, endpointId, eventId: event.id });
        results.push({ endpoint_id: endpointId, ...result });
      }
      return results;
    }),
});

const apiKeysRouter = router({
  list: devProcedure.query(async ({ ctx }) => (await listApiKeys({ db: ctx.db, accountId: ctx.tenant.accountId })).map(presentApiKey)),
  get: devProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => presentApiKey(await getApiKey({ db: ctx.db, accountId: ctx.tenant.accountId, id: input.id }))),
  /** The key itself is in this answer only. */
  create: devProcedure
    .input(
      z.strictObject({
        name: z.string().trim().min(1).max(100).optional(),
        scopes: z.array(z.enum(scopes)).min(1).max(scopes.length),
        allowed_ips: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const created = await issueApiKey({
        db: ctx.db,
        tenant: ctx.tenant,
        actor: ctx.actor,
        input: { name: input.name ?? null, scopes: input.scopes, allowedIps: input.allowed_ips },
      });
      return { ...presentApiKey(created.row), key: created.key };
    }),
  revoke: devProcedure
    .input(z.strictObject({ id }))
    .mutation(({ ctx, input }) => withdrawApiKey({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })),
});

/** Whether this account's mail can go: its own server (Settings → Mail) or the process's SMTP_URL. */
const mailServer = (ctx: { db: Parameters<typeof mailServerSet>[0]; tenant: { accountId: string } }) => mailServerSet(ctx.db, ctx.tenant.accountId, webhookSettings().smtpUrl);

/**
 * An outbox mail as staff read it: who it went (or goes) to, what it is, where it stands in
 * words-ready values (server/webhook-endpoints/outbox.ts), its attempts counted, and the HTML the
 * guest sees for a sandboxed preview.
 */
const presentMail = (m: OutboxMail, server: boolean) => ({
  id: m.id,
  to: m.to,
  /** A guest e-mail's kind; null for the platform's own notice to the developer contact. */
  kind: m.kind,
  guest_mail: m.kind !== null,
  subject: m.subject,
  text: m.text,
  html: m.html,
  state: outboxState(m, server),
  attempts: m.attempts.length,
  last_error: m.sentAt ? null : m.error,
  sent_at: m.sentAt?.toISOString() ?? null,
  created_at: m.createdAt.toISOString(),
});

const outboxRouter = router({
  list: devProcedure.input(z.strictObject({ ...listInput })).query(async ({ ctx, input }) => {
    const list = cursorList("developers.outbox.list", {}, input);
    const server = await mailServer(ctx);
    return list.envelope(await listOutbox({ db: ctx.db, tenant: ctx.tenant, page: list.page }), (m) => presentMail(m, server));
  }),
  /** Sends a mail again: a new copy, queued at once. */
  resend: devProcedure.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => presentMail(await resendMail({ db: ctx.db, tenant: ctx.tenant, id: input.id }), await mailServer(ctx))),
});

/** The developer console (owner and manager): webhooks, deliveries, events, API keys, mail outbox. */
export const developersRouter = router({
  webhooks: webhooksRouter,
  deliveries: deliveriesRouter,
  events: eventsRouter,
  apiKeys: apiKeysRouter,
  outbox: outboxRouter,
});
