import { z } from "zod";
import { presentAccount } from "@/server/accounts/present";
import { accountSettingsUpdateSchema, planChangeSchema } from "@/server/accounts/schemas";
import { presentStaffUser } from "@/server/staff/present";
import { staffInviteSchema, staffRoleChangeSchema } from "@/server/staff/schemas";
import { changePlan, getAccount, updateAccountSettings } from "@/server/accounts/settings";
import { readUsage } from "@/server/accounts/usage";
import { registeredUsageSource } from "@/server/process-plumbing/usage-bridge";
import { getApiDeps } from "@/server/runtime";
import { access } from "@/lib/access";
import { lockedAccounts } from "@/server/staff/sign-in";
import { changeStaffRole, inviteStaffUser, listStaffUsers, removeStaffUser, unlockStaffUser } from "@/server/staff/users";
import { roles, router, staffProcedure } from "../init";

const settingsProcedure = staffProcedure.use(roles(...access.settings));
const planProcedure = staffProcedure.use(roles(...access.plan));
const usersProcedure = staffProcedure.use(roles(...access.users));

const usersRouter = router({
  /** The account's staff, each with whether failed sign-ins have locked it. */
  list: usersProcedure.query(async ({ ctx }) => {
    const staff = (await listStaffUsers({ db: ctx.db, accountId: ctx.user.accountId })).map(presentStaffUser);
    const locked = await lockedAccounts(
      ctx.db,
      staff.map((u) => u.email),
    );
    return staff.map((u) => ({ ...u, sign_in_locked: locked.has(u.email) }));
  }),
  /** Lifts the lock that failed sign-ins put on a staff member's account, before it runs out. */
  unlock: usersProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const user = await unlockStaffUser({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return { ...presentStaffUser(user), sign_in_locked: false };
  }),
  /** A new staff member with a role and an initial password, which the owner hands over. */
  invite: usersProcedure
    .input(staffInviteSchema)
    .mutation(async ({ ctx, input }) => presentStaffUser(await inviteStaffUser({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  changeRole: usersProcedure
    .input(staffRoleChangeSchema)
    .mutation(async ({ ctx, input }) =>
      presentStaffUser((await changeStaffRole({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, role: input.role })).after),
    ),
  remove: usersProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const removed = await removeStaffUser({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return { id: removed.id, object: "user" as const, deleted: true as const };
  }),
});

export const settingsRouter = router({
  get: settingsProcedure.query(async ({ ctx }) => presentAccount(await getAccount({ db: ctx.db, accountId: ctx.user.accountId }))),
  update: settingsProcedure
    .input(accountSettingsUpdateSchema)
    .mutation(async ({ ctx, input }) => presentAccount(await updateAccountSettings({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  /** Owners only (access.plan): the rate limits follow the plan unless the account has its own. */
  changePlan: planProcedure
    .input(planChangeSchema)
    .mutation(async ({ ctx, input }) => presentAccount(await changePlan({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, plan: input.plan }))),
  /** This second's, minute's and UTC day's API requests in the data set on screen, read without counting one. */
  usage: settingsProcedure.query(async ({ ctx }) => {
    const account = await getAccount({ db: ctx.db, accountId: ctx.user.accountId });
    // In the dashboard's own thread the counters are elsewhere: the registered bridge reads them.
    const limiter = ctx.limiter ?? registeredUsageSource() ?? (await getApiDeps()).limiter;
    return readUsage({ limiter, account, livemode: ctx.livemode });
  }),
  users: usersRouter,
});
