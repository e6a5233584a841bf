import { isoTime } from "@/lib/dates";
import type { events } from "@/db/schema";

/** The envelope exactly as the specification gives it. */
export const presentEvent = (e: typeof events.$inferSelect) => ({
  id: e.id,
  object: "event" as const,
  type: e.type,
  created_at: isoTime(e.createdAt),
  api_version: e.apiVersion,
  livemode: e.livemode,
  property_id: e.propertyId,
  data: { object: e.object },
});
