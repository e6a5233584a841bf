import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { assignmentStatuses } from "@/db/schema";
import { ApiError } from "@/server/errors";
import {
  createAssignment,
  deleteAssignment,
  getAssignment,
  listAssignments,
  presentAssignment,
  updateAssignment,
} from "@/server/housekeeping/assignments";
import { getHousekeepingBoard } from "@/server/housekeeping/board";
import { listHousekeepers } from "@/server/housekeeping/housekeepers";
import { changeOutOfOrder, changeRoomStatus } from "@/server/housekeeping/room-status";
import { assignmentCreateSchema, assignmentUpdateSchema, statusChangeSchema } from "@/server/housekeeping/schemas";
import { presentRoom } from "@/server/rooms/present";
import { getRoom } from "@/server/rooms/rooms";
import { date } from "@/server/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

// The same schemas and services as /v1/rooms/{id}/housekeeping and /v1/housekeeping/assignments.
const read = staffProcedure.use(roles(...access.housekeepingRead));
const write = staffProcedure.use(roles(...access.housekeepingWrite));
const assign = staffProcedure.use(roles(...access.housekeepingAssign));
const id = z.string().min(1).max(64);

/** A housekeeper works only their own assignments: theirs when `assignee` is their e-mail (any case). */
const isHousekeeper = (role: string) => role === "housekeeping";
const isOwnAssignment = (assignee: string, email: string) => assignee.trim().toLowerCase() === email.toLowerCase();

const assignmentsRouter = router({
  /** A day's assignments (or all), by housekeeper; a housekeeper sees only their own. */
  list: read
    .input(
      z.strictObject({
        property_id: z.string().min(1).optional(),
        date: date.optional(),
        assignee: z.string().max(100).optional(),
        status: z.enum(assignmentStatuses).optional(),
        ...listInput,
      }),
    )
    .query(async ({ ctx, input: { limit, cursor, ...query } }) => {
      const filters = isHousekeeper(ctx.user.role) ? { ...query, assignee: undefined, assignee_email: ctx.user.email } : query;
      const list = cursorList("housekeeping.assignments.list", filters, { limit, cursor });
      return list.envelope(await listAssignments({ db: ctx.db, tenant: ctx.tenant, filters, page: list.page }), presentAssignment);
    }),
  create: assign
    .input(assignmentCreateSchema)
    .mutation(async ({ ctx, input }) => presentAssignment(await createAssignment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  /** Managers change anything; a housekeeper moves the status (and notes) of their own assignments. */
  update: write.input(assignmentUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...body } }) => {
    const current = await getAssignment({ db: ctx.db, tenant: ctx.tenant, id });
    if (isHousekeeper(ctx.user.role)) {
      // Someone else's assignment is invisible to a housekeeper, so it is missing rather than forbidden.
      if (!isOwnAssignment(current.assignee, ctx.user.email))
        throw new ApiError("resource_missing", `No such housekeeping_assignment: '${id}'`, { param: "id" });
      if (body.assignee !== undefined || body.date !== undefined) {
        throw new TRPCError({ code: "FORBIDDEN", message: "Only a manager can reassign or reschedule an assignment." });
      }
    }
    return presentAssignment(await updateAssignment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input: body }));
  }),
  delete: assign.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => {
    const deleted = await deleteAssignment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return { id: deleted.id, object: "housekeeping_assignment" as const, deleted: true as const };
  }),
  /** The housekeeping staff of the account, to assign rooms to. */
  housekeepers: read.query(({ ctx }) => listHousekeepers({ db: ctx.db, accountId: ctx.tenant.accountId })),
});

export const housekeepingRouter = router({
  /** Every room of a property with its status, allowed next statuses, occupancy and today's marks. */
  board: read
    .input(z.strictObject({ property_id: z.string().min(1) }))
    .query(({ ctx, input }) => getHousekeepingBoard({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id })),
  room: read
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => presentRoom(await getRoom({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  /** POST /v1/rooms/{id}/housekeeping: the status machine of server/housekeeping/transitions.ts decides. */
  changeStatus: write
    .input(statusChangeSchema.extend({ room_id: id }))
    .mutation(async ({ ctx, input: { room_id, ...body } }) =>
      presentRoom(await changeRoomStatus({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, roomId: room_id, input: body })),
    ),
  /** An out-of-order room's block: another return date (extend or shorten; null: until further notice), and its reason. */
  changeOutOfOrder: write
    .input(z.strictObject({ room_id: id, until: date.nullable(), reason: z.string().trim().min(1).max(500).optional() }))
    .mutation(async ({ ctx, input: { room_id, ...body } }) =>
      presentRoom(await changeOutOfOrder({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, roomId: room_id, input: body })),
    ),
  assignments: assignmentsRouter,
});
