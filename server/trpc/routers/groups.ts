import { z } from "zod";
import { cancelGroup, createGroup } from "@/server/groups/groups";
import { getGroupDesk } from "@/server/groups/group-desk";
import { presentGroup } from "@/server/groups/present";
import { groupCancelSchema, groupCreateSchema } from "@/server/groups/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as /v1/groups, for the desk; the services put each change on the audit trail.
// One room's check-in or cancellation is the reservation's own (reservations router).
const groupProcedure = staffProcedure.use(roles(...access.reservations));
const id = z.string().min(1).max(64);

export const groupsRouter = router({
  /** The group page: its rooms with names, what each can do now, and the master folio's balance. */
  desk: groupProcedure.input(z.strictObject({ id })).query(({ ctx, input }) => getGroupDesk({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  create: groupProcedure
    .input(groupCreateSchema)
    .mutation(async ({ ctx, input }) => presentGroup(await createGroup({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  cancel: groupProcedure
    .input(groupCancelSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, reason } }) =>
      presentGroup(await cancelGroup({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, reason })),
    ),
});
