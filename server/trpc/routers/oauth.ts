import { access } from "@/lib/access";
import { deleteApp, listApps, registerApp, rotateAppSecret, updateApp } from "@/server/oauth/apps";
import { listInstalls, revokeInstall } from "@/server/oauth/installs";
import { presentApp } from "@/server/oauth/present";
import { idInput, oauthAppCreateSchema, oauthAppUpdateSchema } from "@/server/oauth/schemas";
import { roles, router, staffProcedure } from "../init";

// OAuth apps and installs belong to the account, not to a data set: the same in live and sandbox.
const developerProcedure = staffProcedure.use(roles(...access.developers));

const appsRouter = router({
  list: developerProcedure.query(async ({ ctx }) => (await listApps({ db: ctx.db, accountId: ctx.tenant.accountId })).map(presentApp)),
  /** The secret of a confidential app is in this answer and nowhere else, ever. */
  create: developerProcedure.input(oauthAppCreateSchema).mutation(async ({ ctx, input }) => {
    const { app, secret } = await registerApp({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, userId: ctx.user.id, input });
    return { app: presentApp(app), client_secret: secret };
  }),
  update: developerProcedure
    .input(oauthAppUpdateSchema)
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentApp((await updateApp({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })).after),
    ),
  rotateSecret: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    const { after, secret } = await rotateAppSecret({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return { app: presentApp(after), client_secret: secret };
  }),
  delete: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await deleteApp({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, userId: ctx.user.id });
    return { id: input.id, deleted: true };
  }),
});

const installsRouter = router({
  list: developerProcedure.query(({ ctx }) => listInstalls({ db: ctx.db, accountId: ctx.tenant.accountId })),
  /** Every token of the install stops working at once. */
  revoke: developerProcedure.input(idInput).mutation(async ({ ctx, input }) => {
    await revokeInstall({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, userId: ctx.user.id });
    return { id: input.id, revoked: true };
  }),
});

export const oauthRouter = router({ apps: appsRouter, installs: installsRouter });
