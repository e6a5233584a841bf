import { z } from "@hono/zod-openapi";
import { and, asc, eq } from "drizzle-orm";
import { guestPreferences, mailOutbox, reservations } from "@/db/schema";
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
