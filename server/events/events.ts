import { eq, gte, isNull, lte } from "drizzle-orm";
import { events } from "@/db/schema";
import { notFound } from "@/server/errors";
import { type PageRequest } from "@/server/pagination";
import { findOwned, type Ctx, listOwned } from "@/server/tenancy";

export type EventFilters = { type?: string; created_gte?: string; created_lte?: string };

/** The event log, newest first; test events (a `ping` or a sample, written already fanned out) are not part of it. */
export async function listEvents({ db, tenant, filters, page }: Ctx & { filters: EventFilters; page: PageRequest }) {
  return listOwned(
    db,
    events,
    tenant,
    page,
    isNull(events.fannedOutAt),
    filters.type ? eq(events.type, filters.type) : undefined,
    filters.created_gte ? gte(events.createdAt, new Date(filters.created_gte)) : undefined,
    filters.created_lte ? lte(events.createdAt, new Date(filters.created_lte)) : undefined,
  );
}

export async function getEvent({ db, tenant, id }: Ctx & { id: string }) {
  const event = await findOwned(db, events, tenant, id, "event");
  if (event.fannedOutAt) throw notFound("event", id);
  return event;
}
