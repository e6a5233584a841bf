import { isoTime } from "@/lib/dates";
import type { bookingEngines } from "@/db/schema";

type EngineRow = typeof bookingEngines.$inferSelect;

/** A property's engine as the API shows it; a property never set up reads as switched off, with no address. */
export const presentBookingEngine = (property: { id: string; livemode: boolean }, row: EngineRow | undefined) => ({
  object: "booking_engine" as const,
  livemode: property.livemode,
  property_id: property.id,
  enabled: row?.enabled ?? false,
  slug: row?.slug ?? null,
  path: row?.slug ? `/book/${row.slug}` : null,
  rate_plan_ids: row?.ratePlanIds ?? [],
  updated_at: row ? isoTime(row.updatedAt) : null,
});
