import { isoTime } from "@/lib/dates";
import type { guestPreferences, guests } from "@/db/schema";

type GuestRow = typeof guests.$inferSelect;
type PreferencesRow = typeof guestPreferences.$inferSelect;

/** What an erased guest is called everywhere their name stood. */
export const erasedName = { first: "Erased", last: "guest" } as const;

/** A guest row as erasure leaves it: names replaced, no contact. */
export const anonymisedGuest = (g: GuestRow): GuestRow => ({ ...g, firstName: erasedName.first, lastName: erasedName.last, email: null, emailKey: null, phone: null, address: null, erasedAt: g.erasedAt ?? new Date() });

export const presentGuest = (g: GuestRow) => ({
  id: g.id,
  object: "guest" as const,
  livemode: g.livemode,
  first_name: g.firstName,
  last_name: g.lastName,
  email: g.email,
  phone: g.phone,
  address: g.address,
  erased_at: g.erasedAt ? isoTime(g.erasedAt) : null,
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
