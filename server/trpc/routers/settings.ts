import { z } from "zod";
import { presentAccount, presentStaffUser } from "@/server/accounts/present";
import { accountSettingsUpdateSchema, planChangeSchema, staffInviteSchema, staffRoleChangeSchema } from "@/server/accounts/schemas";
import { changePlan, getAccount, updateAccountSettings } from "@/server/accounts/settings";
import { readUsage } from "@/server/accounts/usage";
import { registeredUsageSource } from "@/server/process/usage-bridge";
import { getApiDeps } from "@/server/runtime";
import { access } from "@/server/staff/access";
import { lockedAccounts, unlockAccount } from "@/server/staff/sign-in";
import { changeStaffRole, inviteStaffUser, listStaffUsers, removeStaffUser } from "@/server/staff/users";
import { ApiError } from "@/server/errors";
import { audit } from "../audit";
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
    const user = (await listStaffUsers({ db: ctx.db, accountId: ctx.user.accountId })).find((u) => u.id === input.id);
    if (!user) throw new ApiError("resource_missing", `No such user: '${input.id}'`, { param: "id" });
    if (await unlockAccount(ctx.db, user.email)) await audit(ctx, { action: "user.sign_in_unlocked", objectType: "user", objectId: user.id });
    return { ...presentStaffUser(user), sign_in_locked: false };
  }),
  /** A new staff member with a role and an initial password, which the owner hands over. */
  invite: usersProcedure.input(staffInviteSchema).mutation(async ({ ctx, input }) => {
    const user = presentStaffUser(await inviteStaffUser({ db: ctx.db, accountId: ctx.user.accountId, input }));
    await audit(ctx, { action: "user.invited", objectType: "user", objectId: user.id, after: user });
    return user;
  }),
  changeRole: usersProcedure.input(staffRoleChangeSchema).mutation(async ({ ctx, input }) => {
    const change = await changeStaffRole({ db: ctx.db, accountId: ctx.user.accountId, id: input.id, role: input.role });
    const [before, after] = [presentStaffUser(change.before), presentStaffUser(change.after)];
    if (before.role !== after.role) await audit(ctx, { action: "user.role_changed", objectType: "user", objectId: after.id, before, after });
    return after;
  }),
  remove: usersProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const before = presentStaffUser(await removeStaffUser({ db: ctx.db, accountId: ctx.user.accountId, id: input.id }));
    await audit(ctx, { action: "user.removed", objectType: "user", objectId: before.id, before });
    return { id: before.id, object: "user" as const, deleted: true as const };
  }),
});

export const settingsRouter = router({
  get: settingsProcedure.query(async ({ ctx }) => presentAccount(await getAccount({ db: ctx.db, accountId: ctx.user.accountId }))),
  update: settingsProcedure.input(accountSettingsUpdateSchema).mutation(async ({ ctx, input }) => {
    const before = presentAccount(await getAccount({ db: ctx.db, accountId: ctx.user.accountId }));
    const after = presentAccount(await updateAccountSettings({ db: ctx.db, accountId: ctx.user.accountId, input }));
    await audit(ctx, { action: "account.updated", objectType: "account", objectId: after.id, before, after });
    return after;
  }),
  /** Owners only (access.plan): the rate limits follow the plan unless the account has its own. */
  changePlan: planProcedure.input(planChangeSchema).mutation(async ({ ctx, input }) => {
    const before = presentAccount(await getAccount({ db: ctx.db, accountId: ctx.user.accountId }));
    const after = presentAccount(await changePlan({ db: ctx.db, accountId: ctx.user.accountId, plan: input.plan }));
    if (before.plan !== after.plan) await audit(ctx, { action: "account.plan_changed", objectType: "account", objectId: after.id, before, after });
    return after;
  }),
  /** This second's, minute's and UTC day's API requests in the data set on screen, read without counting one. */
  usage: settingsProcedure.query(async ({ ctx }) => {
    const account = await getAccount({ db: ctx.db, accountId: ctx.user.accountId });
    // In the dashboard's own thread the counters are elsewhere: the registered bridge reads them.
    const limiter = ctx.limiter ?? registeredUsageSource() ?? (await getApiDeps()).limiter;
    return readUsage({ limiter, account, livemode: ctx.livemode });
  }),
  users: usersRouter,
});
