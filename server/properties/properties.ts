import { count, eq, inArray } from "drizzle-orm";
import { properties, rooms } from "@/db/schema";
import { type PageRequest } from "@/server/pagination";
import { findOwned, type Ctx, listOwned } from "@/server/tenancy";

type PropertyRow = typeof properties.$inferSelect;
export type PropertyWithRooms = PropertyRow & { roomCount: number };

async function withRoomCounts(db: Ctx["db"], rows: PropertyRow[]): Promise<PropertyWithRooms[]> {
  if (!rows.length) return [];
  const counts = await db
    .select({ propertyId: rooms.propertyId, n: count() })
    .from(rooms)
    .where(
      inArray(
        rooms.propertyId,
        rows.map((r) => r.id),
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

/** Allows or refuses walk-ins without an e-mail at one property (docs/decisions.md, "Find anyone"). */
export async function setWalkInsWithoutEmail({ db, tenant, id, allowed }: Ctx & { id: string; allowed: boolean }) {
  const row = await findOwned(db, properties, tenant, id, "property", { param: "id" });
  await db.update(properties).set({ walkInsWithoutEmail: allowed, updatedAt: new Date() }).where(eq(properties.id, row.id));
  return getProperty({ db, tenant, id: row.id });
}
