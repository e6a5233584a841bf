import { eq, gte, lte } from "drizzle-orm";
import { events } from "@/db/schema";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";

export type EventFilters = { type?: string; created_gte?: string; created_lte?: string };

export async function listEvents({ db, tenant, filters, page }: Ctx & { filters: EventFilters; page: PageRequest }) {
  const q = keyset(events, page);
  const rows = await db
    .select()
    .from(events)
    .where(
      ownedBy(
        events,
        tenant,
        filters.type ? eq(events.type, filters.type) : undefined,
        filters.created_gte ? gte(events.createdAt, new Date(filters.created_gte)) : undefined,
        filters.created_lte ? lte(events.createdAt, new Date(filters.created_lte)) : undefined,
        q.where,
      ),
    )
    .orderBy(...q.orderBy)
    .limit(q.limit);
  return toPage(rows, page);
}

export const getEvent = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, events, tenant, id, "event");
