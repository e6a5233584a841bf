import type { nightAudits } from "@/db/schema";
import { isoTime } from "@/lib/dates";
import type { FlashReport } from "./flash";

export const presentNightAudit = (a: typeof nightAudits.$inferSelect) => ({
  id: a.id,
  object: "night_audit" as const,
  livemode: a.livemode,
  property_id: a.propertyId,
  business_date: a.businessDate,
  trigger: a.trigger,
  no_shows: a.noShows,
  departures_in_house: a.departuresInHouse,
  flash: a.flash as FlashReport,
  created_at: isoTime(a.createdAt),
});
