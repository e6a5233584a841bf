import { access } from "@/server/staff/access";
import { deleteApp, listApps, registerApp, rotateAppSecret, updateApp } from "@/server/oauth/apps";
import { listInstalls, revokeInstall } from "@/server/oauth/installs";
import { presentApp } from "@/server/oauth/present";
import { idInput, oauthAppCreateSchema, oauthAppUpdateSchema } from "@/server/oauth/schemas";
import { audit } from "../audit";
import { roles, router, staffProcedure } from "../init";

// OAuth apps and installs belong to the account, not to a data set: the same in live and sandbox.
const developerProcedure = staffProcedure.use(roles(...access.developers));

const appsRouter = router({
  list: developerProcedure.query(async ({ ctx }) => (await listApps({ db: ctx.db, accountId: ctx.tenant.accountId })).map(presentApp)),
  /** The secret of a confidential app is in this answer and nowhere else, ever. */
  create: developerProcedure.input(oauthAppCreateSchema).mutation(async ({ ctx, input }) => {
    const { app, secret } = await registerApp({ db: ctx.db, accountId: ctx.tenant.accountId, userId: ctx.user.id, input });
    const after = presentApp(app);
    await audit(ctx, { action: "oauth_app.created", objectType: "oauth_app", objectId: app.id, after });
    return { app: after, client_secret: secret };
  }),
  update: developerProcedure.input(oauthAppUpdateSchema).mutation(async ({ ctx, input: { id, ...input } }) => {
    const { before, after } = await updateApp({ db: ctx.db, accountId: ctx.tenant.accountId, id, input });
    const presented = presentApp(after);
    await audit(ctx, { action: "oauth_app.updated", objectType: "oauth_app", objectId: id, before: presentApp(before), after: presented });
    return presented;
  }),
  rotateSecret: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    const { before, after, secret } = await rotateAppSecret({ db: ctx.db, accountId: ctx.tenant.accountId, id: input.id });
    const presented = presentApp(after);
    await audit(ctx, {
      action: "oauth_app.secret_rotated",
      objectType: "oauth_app",
      objectId: input.id,
      before: presentApp(before),
      after: presented,
    });
    return { app: presented, client_secret: secret };
  }),
  delete: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    const before = await deleteApp({ db: ctx.db, accountId: ctx.tenant.accountId, id: input.id, userId: ctx.user.id });
    await audit(ctx, { action: "oauth_app.deleted", objectType: "oauth_app", objectId: input.id, before: presentApp(before) });
    return { id: input.id, deleted: true };
  }),
});

const installsRouter = router({
  list: developerProcedure.query(({ ctx }) => listInstalls({ db: ctx.db, accountId: ctx.tenant.accountId })),
  /** Every token of the install stops working at once. */
  revoke: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    const { before, after } = await revokeInstall({ db: ctx.db, accountId: ctx.tenant.accountId, id: input.id, userId: ctx.user.id });
    const summary = (row: typeof before) => ({
      app_id: row.clientId,
      scopes: row.scopes,
      property_ids: row.propertyIds,
      revoked_at: row.revokedAt?.toISOString() ?? null,
    });
    await audit(ctx, {
      action: "oauth_install.revoked",
      objectType: "oauth_install",
      objectId: input.id,
      before: summary(before),
      after: summary(after),
    });
    return { id: input.id, revoked: true };
  }),
});

export const oauthRouter = router({ apps: appsRouter, installs: installsRouter });
