import { isoTime } from "@/server/dates";
import { businessToday } from "./business-date";
import type { PropertyWithRooms } from "./properties";

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
  business_date: businessToday(p),
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});
