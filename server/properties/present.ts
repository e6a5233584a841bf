import { isoTime } from "@/lib/dates";
import type { properties } from "@/db/schema";
import { businessToday } from "./business-date";

export type PropertyRow = typeof properties.$inferSelect;
export type PropertyWithRooms = PropertyRow & { roomCount: number };

export const presentProperty = (p: PropertyWithRooms) => ({
  id: p.id,
  object: "property" as const,
  livemode: p.livemode,
  name: p.name,
  timezone: p.timezone,
  currency: p.currency,
  address: p.address,
  check_in_time: p.checkInTime,
  check_out_time: p.checkOutTime,
  room_count: p.roomCount,
  walk_ins_without_email: p.walkInsWithoutEmail,
  guest_emails: p.guestEmails,
  audit_hour: p.auditHour,
  overstay_at_audit: p.overstayAtAudit,
  business_date: businessToday(p),
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});
