import { z } from "zod";
import { cancelGroup, createGroup, getGroup } from "@/server/groups/groups";
import { getGroupDesk } from "@/server/groups/group-desk";
import { presentGroup } from "@/server/groups/present";
import { groupCancelSchema, groupCreateSchema } from "@/server/groups/schemas";
import { access } from "@/server/staff/access";
import { audit } from "../audit";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as /v1/groups, for the desk; each change on the audit trail.
// One room's check-in or cancellation is the reservation's own (reservations router).
const groupProcedure = staffProcedure.use(roles(...access.reservations));
const id = z.string().min(1).max(64);

export const groupsRouter = router({
  /** The group page: its rooms with names, what each can do now, and the master folio's balance. */
  desk: groupProcedure.input(z.strictObject({ id })).query(({ ctx, input }) => getGroupDesk({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  create: groupProcedure.input(groupCreateSchema).mutation(async ({ ctx, input }) => {
    const after = presentGroup(await createGroup({ db: ctx.db, tenant: ctx.tenant, input }));
    await audit(ctx, { action: "group.created", objectType: "group", objectId: after.id, after });
    return after;
  }),
  cancel: groupProcedure.input(groupCancelSchema.extend({ id })).mutation(async ({ ctx, input: { id, reason } }) => {
    const before = presentGroup(await getGroup({ db: ctx.db, tenant: ctx.tenant, id }));
    const after = presentGroup(await cancelGroup({ db: ctx.db, tenant: ctx.tenant, id, reason }));
    await audit(ctx, { action: "group.cancelled", objectType: "group", objectId: id, before, after });
    return after;
  }),
});
