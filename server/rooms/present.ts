import { isoTime, isoTimeOrNull } from "@/lib/dates";
import type { roomTypes, rooms } from "@/db/schema";

export const presentRoomType = (t: typeof roomTypes.$inferSelect & { roomCount: number }) => ({
  id: t.id,
  object: "room_type" as const,
  livemode: t.livemode,
  property_id: t.propertyId,
  code: t.code,
  name: t.name,
  description: t.description,
  beds: t.beds,
  max_occupancy: t.maxOccupancy,
  base_occupancy: t.baseOccupancy,
  room_count: t.roomCount,
  amenities: t.amenities,
  created_at: isoTime(t.createdAt),
  updated_at: isoTime(t.updatedAt),
});

export const presentRoom = (r: typeof rooms.$inferSelect) => ({
  id: r.id,
  object: "room" as const,
  livemode: r.livemode,
  property_id: r.propertyId,
  room_type_id: r.roomTypeId,
  number: r.number,
  floor: r.floor,
  housekeeping_status: r.housekeepingStatus,
  occupied: r.occupied,
  out_of_order_reason: r.outOfOrderReason,
  out_of_order_until: r.outOfOrderUntil,
  retired_at: isoTimeOrNull(r.retiredAt),
  created_at: isoTime(r.createdAt),
  updated_at: isoTime(r.updatedAt),
});
