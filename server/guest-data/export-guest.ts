import { z } from "@hono/zod-openapi";
import { and, asc, eq, inArray } from "drizzle-orm";
import { guestPreferences, mailOutbox, properties, ratePlans, reservations, roomTypes } from "@/db/schema";
import { folioSchema, getReservationFolio } from "@/server/folios/folios";
import { guestMailSchema, presentGuestMail } from "@/server/guest-mail/present";
import { presentReservation } from "@/server/reservations/present";
import { reservationSchema } from "@/server/reservations/schemas";
import { timestamp } from "@/server/schemas";
import type { Ctx } from "@/server/tenancy";
import { findGuest } from "@/server/guests/guests";
import { presentGuest, presentPreferences } from "@/server/guests/present";
import { guestSchema, preferencesSchema } from "@/server/guests/schemas";

export const guestExportSchema = z
  .object({
    object: z.literal("guest_export"),
    exported_at: timestamp,
    guest: guestSchema,
    preferences: preferencesSchema,
    reservations: z.array(reservationSchema).openapi({ description: "Every reservation of the guest, oldest arrival first." }),
    folios: z.array(folioSchema).openapi({ description: "Each reservation's folio: charges, payments, refunds and balance." }),
    emails: z.array(guestMailSchema).openapi({ description: "The e-mails sent (or kept) to the guest about their bookings, oldest first." }),
  })
  .openapi("GuestExport", { description: "Everything the account holds about one guest, as one document (a subject access request)." });

/** One guest's data as one JSON document: the guest, preferences, reservations, their folios and the e-mails sent. */
export async function exportGuest({ db, tenant, id }: Ctx & { id: string }) {
  const guest = await findGuest(db, tenant, id);
  const [[prefs], stays, mails] = await Promise.all([
    db.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id)),
    db.select().from(reservations).where(eq(reservations.guestId, guest.id)).orderBy(asc(reservations.checkIn), asc(reservations.id)),
    db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.accountId, tenant.accountId), eq(mailOutbox.guestId, guest.id)))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id)),
  ]);
  const folios = await Promise.all(stays.map((r) => getReservationFolio({ db, tenant, reservationId: r.id })));
  return {
    object: "guest_export" as const,
    exported_at: new Date().toISOString(),
    guest: presentGuest(guest),
    preferences: presentPreferences(guest, prefs),
    reservations: stays.map((reservation) => presentReservation({ reservation, guest })),
    folios,
    emails: mails.map(presentGuestMail),
  };
}

/**
 * The same export for a person to read (issue 39, point 6): the document above, and the names its
 * ids stand for (each property with its currency's number format, its time zone and its address's
 * country, each room type and rate plan), so the readable page says "Deluxe King at Harbour
 * Hotel" and formats each amount and moment as the hotel does, without a second rule.
 */
export async function exportGuestForReading(ctx: Ctx & { id: string }) {
  const data = await exportGuest(ctx);
  const ids = (pick: (r: (typeof data.reservations)[number]) => string) => [...new Set(data.reservations.map(pick))];
  const [propertyIds, typeIds, planIds] = [ids((r) => r.property_id), ids((r) => r.room_type_id), ids((r) => r.rate_plan_id)];
  const none = Promise.resolve([] as never[]);
  const [props, types, plans] = await Promise.all([
    propertyIds.length ? ctx.db.select().from(properties).where(inArray(properties.id, propertyIds)) : none,
    typeIds.length ? ctx.db.select().from(roomTypes).where(inArray(roomTypes.id, typeIds)) : none,
    planIds.length ? ctx.db.select().from(ratePlans).where(inArray(ratePlans.id, planIds)) : none,
  ]);
  // Moments outside a stay (the export's own, the guest's creation) on the clock of the hotel the
  // guest stayed at, else the account's first.
  const [home] = props.length ? props : await ctx.db.select().from(properties).where(eq(properties.accountId, ctx.tenant.accountId)).orderBy(asc(properties.createdAt)).limit(1);
  return {
    data,
    timezone: home?.timezone ?? "UTC",
    properties: Object.fromEntries(props.map((p) => [p.id, { name: p.name, timezone: p.timezone, country: p.address.country ?? null }])),
    room_types: Object.fromEntries(types.map((t) => [t.id, t.name])),
    rate_plans: Object.fromEntries(plans.map((p) => [p.id, p.name])),
  };
}

