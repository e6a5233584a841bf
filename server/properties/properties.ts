import { and, count, eq, inArray, isNull } from "drizzle-orm";
import { changesFrom } from "@/server/changes";
import type { Executor } from "@/db/client";
import { dailyRates, properties, reservations, rooms } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { newId } from "@/server/ids";
import { inTransaction } from "@/db/transactions";
import { presentProperty, type PropertyRow, type PropertyWithRooms } from "./present";
import { type PageRequest } from "@/server/pagination";
import { findOwned, type Ctx, listOwned, tenantValues } from "@/server/tenancy";
import { cleanAddress, type PropertyCreate, type PropertyUpdate } from "./schemas";


/** Rooms in service per property: a retired room no longer counts. */
async function withRoomCounts(db: Executor, rows: PropertyRow[]): Promise<PropertyWithRooms[]> {
  if (!rows.length) return [];
  const counts = await db
    .select({ propertyId: rooms.propertyId, n: count() })
    .from(rooms)
    .where(
      and(
        inArray(
          rooms.propertyId,
          rows.map((r) => r.id),
        ),
        isNull(rooms.retiredAt),
      ),
    )
    .groupBy(rooms.propertyId);
  const byId = new Map(counts.map((c) => [c.propertyId, Number(c.n)]));
  return rows.map((r) => ({ ...r, roomCount: byId.get(r.id) ?? 0 }));
}

export async function listProperties({ db, tenant, page }: Ctx & { page: PageRequest }) {
  const result = await listOwned(db, properties, tenant, page);
  return { ...result, data: await withRoomCounts(db, result.data) };
}

export async function getProperty({ db, tenant, id, param }: Ctx & { id: string; param?: string }) {
  const row = await findOwned(db, properties, tenant, id, "property", { param });
  const [withCount] = await withRoomCounts(db, [row]);
  return withCount;
}


/**
 * A new property of the account in this environment, with no rooms yet. An OAuth install is
 * bound to the properties it was granted, so it cannot add one (it could never see it).
 */
export async function createProperty({ db, tenant, actor, input }: ChangeCtx & { input: PropertyCreate }) {
  if (tenant.propertyIds)
    throw new ApiError("property_not_granted", "This app is bound to the properties it was granted and cannot create one; use an API key.");
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(properties)
      .values({
        id: newId("property"),
        ...tenantValues(tenant),
        name: input.name,
        timezone: input.timezone,
        currency: input.currency,
        address: cleanAddress(input.address),
        checkInTime: input.check_in_time,
        checkOutTime: input.check_out_time,
        guestEmails: input.guest_emails,
        auditHour: input.audit_hour,
        walkInsWithoutEmail: input.walk_ins_without_email,
        overstayAtAudit: input.overstay_at_audit,
      })
      .returning();
    const created = { ...row, roomCount: 0 };
    const after = presentProperty(created);
    await recordChange(tx, { tenant, actor }, [{ type: "property.created", propertyId: row.id, object: after }], {
      action: "property.created",
      objectType: "property",
      objectId: row.id,
      after,
    });
    return created;
  });
}

/**
 * Changes a property's attributes. The currency is what every stored amount of the property is
 * counted in, so it changes only while no daily rate and no reservation exists.
 */
export async function updateProperty({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: PropertyUpdate }) {
  return inTransaction(db, async (tx) => {
    const current = await findOwned(tx, properties, tenant, id, "property", { forUpdate: true });
    if (input.currency && input.currency !== current.currency) {
      const [[rate], [stay]] = await Promise.all([
        tx.select({ id: dailyRates.ratePlanId }).from(dailyRates).where(eq(dailyRates.propertyId, current.id)).limit(1),
        tx.select({ id: reservations.id }).from(reservations).where(eq(reservations.propertyId, current.id)).limit(1),
      ]);
      if (rate || stay) {
        throw new ApiError(
          "parameter_invalid",
          `The currency cannot change once the property has ${stay ? "reservations" : "daily rates"} in ${current.currency}.`,
          {
            param: "currency",
          },
        );
      }
    }
    const changes = changesFrom(current, {
      name: input.name ?? current.name,
      timezone: input.timezone ?? current.timezone,
      currency: input.currency ?? current.currency,
      address: input.address ? cleanAddress(input.address) : current.address,
      checkInTime: input.check_in_time ?? current.checkInTime,
      checkOutTime: input.check_out_time ?? current.checkOutTime,
      guestEmails: input.guest_emails ?? current.guestEmails,
      auditHour: input.audit_hour ?? current.auditHour,
      walkInsWithoutEmail: input.walk_ins_without_email ?? current.walkInsWithoutEmail,
      overstayAtAudit: input.overstay_at_audit ?? current.overstayAtAudit,
    });
    if (!changes) return (await withRoomCounts(tx, [current]))[0];
    const [row] = await tx
      .update(properties)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(properties.id, current.id))
      .returning();
    const [updated] = await withRoomCounts(tx, [row]);
    const after = presentProperty(updated);
    await recordChange(tx, { tenant, actor }, [{ type: "property.updated", propertyId: row.id, object: after }], {
      action: "property.updated",
      objectType: "property",
      objectId: row.id,
      // The rooms are not this change's: counted once, for both sides.
      before: presentProperty({ ...current, roomCount: updated.roomCount }),
      after,
    });
    return updated;
  });
}

/** Allows or refuses walk-ins without an e-mail at one property (docs/decisions.md, "Find anyone"). */
export const setWalkInsWithoutEmail = ({ id, allowed, ...ctx }: ChangeCtx & { id: string; allowed: boolean }) =>
  updateProperty({ ...ctx, id, input: { walk_ins_without_email: allowed } });
