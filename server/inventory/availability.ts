import { and, eq } from "drizzle-orm";
import { properties, ratePlans } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { businessToday } from "@/server/properties/business-date";
import { presentStayPrice, taxRulesOf } from "@/server/folios/folios";
import { asNightRate, loadRatesOfPlans } from "@/server/rates/daily-rates";
import { priceStay } from "@/server/taxes/compute";
import { quoteStay, type UnbookableReason } from "@/server/rates/quote";
import { preparedQuery } from "@/db/prepared";
import { sideBySide } from "@/server/side-by-side";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { typesOf } from "./inventory";
import { availableOf, readNights } from "./nights";
import type { AvailabilityQuery } from "./schemas";
import { assertStayDates } from "./stay-rules";

/**
 * What can be sold for a stay: per room type the rooms free on every night, and per active rate
 * plan covering it a priced quote saying whether it is bookable and, if not, why.
 */
export async function getAvailability(ctx: Ctx & { query: AvailabilityQuery }) {
  const { db, tenant, query } = ctx;
  // Everything a quote reads, in two round trips instead of one per statement; the checks below
  // still fail in the contract's order (property, dates, room type).
  const [propertyRead, typesRead, plansRead, taxesRead] = await sideBySide([
    findOwned(db, properties, tenant, query.property_id, "property", { param: "property_id" }),
    typesOf(ctx, query.property_id, query.room_type_id, "query"),
    tenant.propertyIds === null
      ? preparedQuery(db, "active_rate_plans", { account: tenant.accountId, livemode: tenant.livemode, property: query.property_id }, (p) =>
          db
            .select()
            .from(ratePlans)
            .where(and(eq(ratePlans.accountId, p("account")), eq(ratePlans.livemode, p("livemode")), eq(ratePlans.propertyId, p("property")), eq(ratePlans.active, true))),
        )
      : db.select().from(ratePlans).where(ownedBy(ratePlans, tenant, and(eq(ratePlans.propertyId, query.property_id), eq(ratePlans.active, true)))),
    // The property's taxes, read once for every quote (used only once the property is known to be the tenant's).
    taxRulesOf(db, query.property_id),
  ]);
  const property = propertyRead();
  const nights = assertStayDates(query.check_in, query.check_out, businessToday(property), "query");
  const types = typesRead();
  const plans = plansRead();
  const rules = taxesRead();
  const typeIds = types.map((t) => t.id);
  const [inventoryRead, ratesRead] = await sideBySide([
    readNights(db, typeIds, query.check_in, query.check_out),
    // The departure day's row carries closed-to-departure, so rates are read one day past the stay.
    loadRatesOfPlans(db, plans.map((p) => p.id), typeIds, query.check_in, addDays(query.check_out, 1)),
  ]);
  const inventory = inventoryRead();
  const ratesByPlan = ratesRead();
  const guests = query.adults + query.children;
  return {
    object: "availability" as const,
    livemode: property.livemode,
    property_id: property.id,
    check_in: query.check_in,
    check_out: query.check_out,
    nights,
    adults: query.adults,
    children: query.children,
    data: types.map((type) => {
      const typeNights = inventory.filter((n) => n.roomTypeId === type.id);
      const available = typeNights.length ? Math.min(...typeNights.map(availableOf)) : 0;
      const quotes = plans
        .filter((p) => p.roomTypeIds.includes(type.id))
        .map((plan) => {
          const rates = ratesByPlan.get(plan.id)!;
          const quote = quoteStay(query.check_in, query.check_out, (date) => asNightRate(rates.get(`${type.id}:${date}`)));
          // The reason a booking would be refused for, in the contract's order of checks:
          // occupancy, then the rate restrictions, then availability.
          let reason: UnbookableReason | undefined = guests > type.maxOccupancy ? "max_occupancy" : quote.reason;
          if (!reason && available < 1) reason = "no_availability";
          return {
            rate_plan_id: plan.id,
            total: { amount: quote.total, currency: property.currency },
            nightly: quote.nightly,
            price: presentStayPrice(priceStay(quote.nightly, rules, guests), property.currency),
            bookable: !reason,
            ...(reason ? { reason } : {}),
          };
        });
      return { room_type_id: type.id, code: type.code, name: type.name, max_occupancy: type.maxOccupancy, available, quotes };
    }),
  };
}
