import { and, eq, inArray, ne } from "drizzle-orm";
import { bookingEngines, properties, ratePlans } from "@/db/schema";
import type { Executor } from "@/db/client";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { findOwned, ownedBy, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { presentBookingEngine } from "./present";
import { reservedSlugs, type BookingEngineUpdate } from "./schemas";

const engineOf = async (db: Executor, propertyId: string, lock = false) => {
  const query = db.select().from(bookingEngines).where(eq(bookingEngines.propertyId, propertyId));
  const [row] = await (lock ? query.for("update") : query);
  return row;
};

/** A property's booking engine settings (switched off, with no address, until set). */
export async function getBookingEngine({ db, tenant, propertyId }: Ctx & { propertyId: string }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property");
  return presentBookingEngine(property, await engineOf(db, property.id));
}

/** Every id must be a rate plan of this property (in the tenant's environment). */
async function assertPlansOf(db: Executor, tenant: Tenant, propertyId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = unique.length
    ? await db.select({ id: ratePlans.id }).from(ratePlans).where(ownedBy(ratePlans, tenant, eq(ratePlans.propertyId, propertyId), inArray(ratePlans.id, unique)))
    : [];
  const known = new Set(found.map((p) => p.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) throw new ApiError("parameter_invalid", `'${ids[index]}' is not a rate plan of property '${propertyId}'.`, { param: `rate_plan_ids.${index}` });
  return unique;
}

async function assertSlugFree(db: Executor, slug: string, propertyId: string) {
  if (reservedSlugs.has(slug)) throw new ApiError("parameter_invalid", `'${slug}' is reserved; choose another address.`, { param: "slug" });
  const [taken] = await db
    .select({ id: bookingEngines.propertyId })
    .from(bookingEngines)
    .where(and(eq(bookingEngines.slug, slug), ne(bookingEngines.propertyId, propertyId)));
  if (taken) throw slugTaken(slug);
}

const slugTaken = (slug: string) => new ApiError("parameter_invalid", `The address '${slug}' is already taken by another hotel; choose another.`, { param: "slug" });

/**
 * Changes a property's engine: the fields sent, the rest kept. Switched on, it must have an
 * address and sell at least one rate plan. On the trail as `booking_engine.updated`.
 */
export async function updateBookingEngine({ db, tenant, actor, propertyId, input }: ChangeCtx & { propertyId: string; input: BookingEngineUpdate }) {
  try {
    return await inTransaction(db, async (tx) => {
      const property = await findOwned(tx, properties, tenant, propertyId, "property", { forUpdate: true });
      const current = await engineOf(tx, property.id, true);
      const next = {
        enabled: input.enabled ?? current?.enabled ?? false,
        slug: input.slug === undefined ? (current?.slug ?? null) : input.slug,
        ratePlanIds: input.rate_plan_ids ? await assertPlansOf(tx, tenant, property.id, input.rate_plan_ids) : (current?.ratePlanIds ?? []),
      };
      if (next.slug && next.slug !== current?.slug) await assertSlugFree(tx, next.slug, property.id);
      if (next.enabled && !next.slug) throw new ApiError("parameter_missing", "An address (slug) is needed before the booking engine can be switched on.", { param: "slug" });
      if (next.enabled && !next.ratePlanIds.length) {
        throw new ApiError("parameter_missing", "Choose at least one rate plan to sell before switching the booking engine on.", { param: "rate_plan_ids" });
      }
      const before = presentBookingEngine(property, current);
      const [row] = await tx
        .insert(bookingEngines)
        .values({ propertyId: property.id, ...tenantValues(tenant), ...next })
        .onConflictDoUpdate({ target: bookingEngines.propertyId, set: { ...next, updatedAt: new Date() } })
        .returning();
      const after = presentBookingEngine(property, row);
      await audit(tx, { tenant, actor }, { action: "booking_engine.updated", objectType: "booking_engine", objectId: property.id, before: current ? before : undefined, after });
      return after;
    });
  } catch (error) {
    // Two hotels taking the same free address at once: the unique index decides, in the same words.
    if ((error as { code?: string; cause?: { code?: string } }).code === "23505" || (error as { cause?: { code?: string } }).cause?.code === "23505") {
      throw slugTaken(input.slug ?? "");
    }
    throw error;
  }
}
