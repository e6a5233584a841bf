import { and, eq, sql } from "drizzle-orm";
import { properties, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { businessToday } from "@/server/properties/business-date";
import { getHousekeepingBoard } from "@/server/housekeeping/board";
import { occupancyReport } from "@/server/reports/reports";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { dayMatch } from "./search-reservations";

/**
 * The front desk's day at one property, for its home page: how many arrive, are in house and
 * leave today (and how many of those are still to be checked in or out), the occupancy tonight
 * from the occupancy report, and the rooms that keep arriving guests waiting: for each room type
 * with more arrivals still to come than rooms ready, the free rooms not yet clean.
 */
export async function getDeskDay({ db, tenant, propertyId }: Ctx & { propertyId: string }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const today = businessToday(property);
  const where = (view: Parameters<typeof dayMatch>[0]) => dayMatch(view, today, property.timezone);
  const filtered = (condition: ReturnType<typeof where>) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
  const [[counts], tonight, board] = await Promise.all([
    db
      .select({
        arrivals: filtered(where("arrivals")),
        arrivals_pending: filtered(and(where("arrivals"), eq(reservations.status, "confirmed"))),
        in_house: filtered(where("in_house")),
        departures: filtered(where("departures")),
        departures_pending: filtered(and(where("departures"), eq(reservations.status, "checked_in"))),
      })
      .from(reservations)
      .where(ownedBy(reservations, tenant, eq(reservations.propertyId, property.id))),
    occupancyReport({ db, tenant, query: { property_id: property.id, from: today, to: addDays(today, 1) } }),
    getHousekeepingBoard({ db, tenant, propertyId: property.id }),
  ]);
  const short = board.room_types.filter((t) => t.arrivals_pending > t.ready);
  return {
    today,
    counts: {
      arrivals: counts.arrivals,
      arrivals_pending: counts.arrivals_pending,
      in_house: counts.in_house,
      departures: counts.departures,
      departures_pending: counts.departures_pending,
    },
    tonight: tonight.totals,
    rooms_not_ready: short.map((t) => ({
      room_type: { id: t.id, code: t.code, name: t.name },
      arrivals_pending: t.arrivals_pending,
      ready: t.ready,
      /** Free rooms of the type that are not ready yet (dirty first, then out of order), by number. */
      rooms: board.rooms
        .filter((r) => r.room_type_id === t.id && !r.occupied && (r.housekeeping_status === "dirty" || r.housekeeping_status === "out-of-order"))
        .sort((a, b) => (a.housekeeping_status === b.housekeeping_status ? a.number.localeCompare(b.number, undefined, { numeric: true }) : a.housekeeping_status === "dirty" ? -1 : 1))
        .map((r) => ({ id: r.id, number: r.number, housekeeping_status: r.housekeeping_status })),
    })),
  };
}
