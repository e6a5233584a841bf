import { isoTime } from "@/server/dates";
import type { guestPreferences, guests } from "@/db/schema";

type GuestRow = typeof guests.$inferSelect;
type PreferencesRow = typeof guestPreferences.$inferSelect;

export const presentGuest = (g: GuestRow) => ({
  id: g.id,
  object: "guest" as const,
  livemode: g.livemode,
  first_name: g.firstName,
  last_name: g.lastName,
  email: g.email,
  phone: g.phone,
  created_at: isoTime(g.createdAt),
  updated_at: isoTime(g.updatedAt),
});

export const presentPreferences = (guest: GuestRow, p: PreferencesRow | undefined) => ({
  object: "guest_preferences" as const,
  guest_id: guest.id,
  livemode: guest.livemode,
  allergies: p?.allergies ?? [],
  room: p?.room ?? {},
  loyalty: p?.loyalty ?? {},
  updated_at: p ? isoTime(p.updatedAt) : null,
});
