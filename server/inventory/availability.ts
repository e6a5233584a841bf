import { and, eq } from "drizzle-orm";
import { properties, ratePlans } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
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
  const { query } = ctx;
  let nights = 0;
  const sale = await readSale(ctx, query, (today) => {
    nights = assertStayDates(query.check_in, query.check_out, today, "query");
    return { from: query.check_in, to: query.check_out };
  });
  return {
    object: "availability" as const,
    livemode: sale.property.livemode,
    property_id: sale.property.id,
    check_in: query.check_in,
    check_out: query.check_out,
    nights,
    adults: query.adults,
    children: query.children,
    data: quoteSale(sale, query),
  };
}

/** Everything the quotes of stays within a span of days read: the property, its room types, active plans and taxes, the nights' inventory and the rates. */
export type SaleData = Awaited<ReturnType<typeof readSale>>;

/**
 * Reads what quotes need for stays arriving and leaving within [from, to] in two round trips (not
 * one per statement, nor one per stay); the span is chosen by `span` once the property's business
 * day is known, and the checks fail in the contract's order (property, dates, room type). Used
 * by one stay's availability and by the booking engine's month of prices.
 */
export async function readSale(ctx: Ctx, query: { property_id: string; room_type_id?: string }, span: (today: IsoDate) => { from: IsoDate; to: IsoDate }) {
  const { db, tenant } = ctx;
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
  const today = businessToday(property);
  const { from, to } = span(today);
  const types = typesRead();
  const plans = plansRead();
  const rules = taxesRead();
  const typeIds = types.map((t) => t.id);
  const [inventoryRead, ratesRead] = await sideBySide([
    readNights(db, typeIds, from, to),
    // The departure day's row carries closed-to-departure, so rates are read one day past the span.
    loadRatesOfPlans(db, plans.map((p) => p.id), typeIds, from, addDays(to, 1)),
  ]);
  return { property, today, types, plans, rules, inventory: inventoryRead(), ratesByPlan: ratesRead() };
}

/** The quotes of one stay from what `readSale` read (its span covering the stay): per room type, the rooms free on every night and each plan's priced quote. */
export function quoteSale(sale: SaleData, stay: { check_in: IsoDate; check_out: IsoDate; adults: number; children: number }) {
  const { property, types, plans, rules, inventory, ratesByPlan } = sale;
  const guests = stay.adults + stay.children;
  return types.map((type) => {
    const typeNights = inventory.filter((n) => n.roomTypeId === type.id && n.date >= stay.check_in && n.date < stay.check_out);
    const available = typeNights.length ? Math.min(...typeNights.map(availableOf)) : 0;
    const quotes = plans
      .filter((p) => p.roomTypeIds.includes(type.id))
      .map((plan) => {
        const rates = ratesByPlan.get(plan.id)!;
        const quote = quoteStay(stay.check_in, stay.check_out, (date) => asNightRate(rates.get(`${type.id}:${date}`)));
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
  });
}
