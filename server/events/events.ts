import { eq, gte, lte } from "drizzle-orm";
import { events } from "@/db/schema";
import { type PageRequest } from "@/server/pagination";
import { findOwned, type Ctx, listOwned } from "@/server/tenancy";

export type EventFilters = { type?: string; created_gte?: string; created_lte?: string };

export async function listEvents({ db, tenant, filters, page }: Ctx & { filters: EventFilters; page: PageRequest }) {
  return listOwned(
    db,
    events,
    tenant,
    page,
    filters.type ? eq(events.type, filters.type) : undefined,
    filters.created_gte ? gte(events.createdAt, new Date(filters.created_gte)) : undefined,
    filters.created_lte ? lte(events.createdAt, new Date(filters.created_lte)) : undefined,
  );
}

export const getEvent = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, events, tenant, id, "event");
