import { eq, sql } from "drizzle-orm";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { changesFrom } from "@/server/changes";
import { assignmentStatuses, housekeepingAssignments, properties, rooms } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, listOwned, tenantValues, type Ctx } from "@/server/tenancy";
import type { AssignmentCreate, AssignmentUpdate } from "./schemas";

type Status = (typeof assignmentStatuses)[number];
/** Work moves forward only: pending → in_progress → done (or straight to done). */
const next: Record<Status, Status[]> = { pending: ["in_progress", "done"], in_progress: ["done"], done: [] };

export async function createAssignment({ db, tenant, actor, input }: ChangeCtx & { input: AssignmentCreate }) {
  const property = await findOwned(db, properties, tenant, input.property_id, "property", { param: "property_id" });
  const room = await findOwned(db, rooms, tenant, input.room_id, "room", { param: "room_id" });
  if (room.retiredAt) throw new ApiError("parameter_invalid", `Room ${room.number} is retired.`, { param: "room_id" });
  if (room.propertyId !== property.id) throw new ApiError("parameter_invalid", "The room belongs to another property.", { param: "room_id" });
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(housekeepingAssignments)
      .values({
        id: newId("housekeepingAssignment"),
        ...tenantValues(tenant),
        propertyId: property.id,
        roomId: room.id,
        date: input.date,
        assignee: input.assignee,
        notes: input.notes ?? null,
      })
      .returning();
    await audit(
      tx,
      { tenant, actor },
      { action: "housekeeping_assignment.created", objectType: "housekeeping_assignment", objectId: row.id, after: presentAssignment(row) },
    );
    return row;
  });
}

export async function updateAssignment({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: AssignmentUpdate }) {
  return db.transaction(async (tx) => {
    const current = await findOwned(tx, housekeepingAssignments, tenant, id, "housekeeping_assignment", { forUpdate: true });
    if (input.status && input.status !== current.status && !next[current.status].includes(input.status)) {
      throw new ApiError("invalid_state_transition", `An assignment cannot go from ${current.status} to ${input.status}.`, { param: "status" });
    }
    const changes = changesFrom(current, {
      date: input.date ?? current.date,
      assignee: input.assignee ?? current.assignee,
      notes: input.notes === undefined ? current.notes : input.notes,
      status: input.status ?? current.status,
    });
    if (!changes) return current;
    const [row] = await tx
      .update(housekeepingAssignments)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(housekeepingAssignments.id, current.id))
      .returning();
    await audit(
      tx,
      { tenant, actor },
      {
        action: "housekeeping_assignment.updated",
        objectType: "housekeeping_assignment",
        objectId: row.id,
        before: presentAssignment(current),
        after: presentAssignment(row),
      },
    );
    return row;
  });
}

export const getAssignment = ({ db, tenant, id }: Ctx & { id: string }) =>
  findOwned(db, housekeepingAssignments, tenant, id, "housekeeping_assignment");

/** Removes an assignment; the trail keeps it as it was when deleted (the row the DELETE returned). */
export async function deleteAssignment({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const current = await findOwned(tx, housekeepingAssignments, tenant, id, "housekeeping_assignment");
    const [deleted] = await tx.delete(housekeepingAssignments).where(eq(housekeepingAssignments.id, current.id)).returning();
    // Deleted meanwhile by another request: that one is on the trail.
    if (!deleted) return current;
    await audit(
      tx,
      { tenant, actor },
      { action: "housekeeping_assignment.deleted", objectType: "housekeeping_assignment", objectId: deleted.id, before: presentAssignment(deleted) },
    );
    return deleted;
  });
}

export type AssignmentFilters = {
  property_id?: string;
  date?: string;
  assignee?: string;
  status?: Status;
  /** A housekeeper's e-mail: only the assignments naming it, whatever its case (the dashboard's "mine"). */
  assignee_email?: string;
};

export async function listAssignments({ db, tenant, filters, page }: Ctx & { filters: AssignmentFilters; page: PageRequest }) {
  const t = housekeepingAssignments;
  return listOwned(
    db,
    t,
    tenant,
    page,
    filters.property_id ? eq(t.propertyId, filters.property_id) : undefined,
    filters.date ? eq(t.date, filters.date) : undefined,
    filters.assignee ? eq(t.assignee, filters.assignee) : undefined,
    filters.status ? eq(t.status, filters.status) : undefined,
    filters.assignee_email ? sql`lower(${t.assignee}) = ${filters.assignee_email.toLowerCase()}` : undefined,
  );
}

export const presentAssignment = (a: typeof housekeepingAssignments.$inferSelect) => ({
  id: a.id,
  object: "housekeeping_assignment" as const,
  livemode: a.livemode,
  property_id: a.propertyId,
  room_id: a.roomId,
  date: a.date,
  assignee: a.assignee,
  notes: a.notes,
  status: a.status,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});
