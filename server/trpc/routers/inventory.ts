import { z } from "zod";
import { addDays } from "@/lib/dates";
import { getInventory, typesOf } from "@/server/inventory/inventory";
import { nightRestrictions } from "@/server/rates/night-restrictions";
import { listNightReservations } from "@/server/reservations/by-night";
import { presentReservation } from "@/server/reservations/present";
import { date } from "@/server/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same services as GET /v1/inventory; the calendar adds the room types' names to it.
const availability = staffProcedure.use(roles(...access.availability));

export const inventoryRouter = router({
  /**
   * Room types × `days` nights from `from`: total, sold, out of order, held and available per
   * cell, and each active rate plan's rate and restrictions that night.
   */
  calendar: availability
    .input(z.strictObject({ property_id: z.string().min(1), from: date, days: z.number().int().min(1).max(62).default(30) }))
    .query(async ({ ctx, input }) => {
      const base = { db: ctx.db, tenant: ctx.tenant };
      const to = addDays(input.from, input.days);
      const inventory = await getInventory({ ...base, query: { property_id: input.property_id, from: input.from, to } });
      const types = await typesOf(base, input.property_id, undefined, "query");
      const restrictions = await nightRestrictions({
        ...base,
        propertyId: input.property_id,
        roomTypeIds: types.map((t) => t.id),
        from: input.from,
        to,
      });
      return {
        ...inventory,
        data: inventory.data.map((cell) => ({ ...cell, rates: restrictions.nights(cell.room_type_id, cell.date) })),
        room_types: types.sort((a, b) => a.name.localeCompare(b.name)).map((t) => ({ id: t.id, code: t.code, name: t.name })),
        rate_plans: restrictions.plans,
      };
    }),
  /** The bookings staying one night (a calendar cell), optionally of one room type. */
  night: availability
    .input(z.strictObject({ property_id: z.string().min(1), room_type_id: z.string().min(1).optional(), date }))
    .query(async ({ ctx, input }) => {
      const rows = await listNightReservations({
        db: ctx.db,
        tenant: ctx.tenant,
        propertyId: input.property_id,
        roomTypeId: input.room_type_id,
        date: input.date,
      });
      return { date: input.date, data: rows.map(presentReservation) };
    }),
});
