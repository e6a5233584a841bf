import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { GuestShell } from "@/components/booking-engine/guest-shell";
import { guestButton, StayFields } from "@/components/booking-engine/stay-fields";
import { guestDay, guestMoment, guestMoney } from "@/components/booking-engine/guest-words";
import { addDays } from "@/lib/dates";
import type { GuestLocale } from "@/lib/guest-locale";
import { PriceCalendar } from "@/components/booking-engine/price-calendar";
import { priceCalendar } from "@/server/booking-engine/calendar";
import { engineBySlug, presentHotel, searchStays } from "@/server/booking-engine/guest";
import { jsonLdText, publicOrigin, searchJsonLd } from "@/server/booking-engine/structured-data";
import { countGuestRequest } from "@/server/booking-engine/limits";
import { engineCalendarQuery, engineSearchQuery } from "@/server/booking-engine/schemas";
import { ApiError } from "@/server/errors";
import { clientAddressHeader } from "@/server/listener";
import { businessToday } from "@/server/properties/business-date";
import { getApiDeps } from "@/server/runtime";

type Params = { slug: string };
type Query = { check_in?: string; check_out?: string; adults?: string; children?: string; lang?: string; problem?: string; month?: string };

/** The engine at this address, or the 404 page: an unknown address and a switched-off engine look alike. Read once per request (the title and the page share it). */
const engineOr404 = cache(async (slug: string) => {
  const { db } = await getApiDeps();
  try {
    return await engineBySlug(db, slug);
  } catch (error) {
    if (error instanceof ApiError && error.code === "resource_missing") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { slug } = await params;
  const { property } = await engineOr404(slug);
  const t = await getTranslations("book");
  return { title: { absolute: t("pageTitle", { hotel: property.name }) } };
}

const problems = new Set(["no_availability", "too_many_requests", "unavailable"]);

// /book/<slug>: a hotel's booking page. Dates and guests, then the rooms free for the whole stay
// with the rates the hotel sells here, priced as the guest pays; each rate's button holds the room
// (a plain form post to /book-api/<slug>/sessions, which answers with the details page).
export default async function BookingSearchPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Query> }) {
  const [{ slug }, query, locale, t] = await Promise.all([params, searchParams, getLocale() as Promise<GuestLocale>, getTranslations("book")]);
  const { property } = await engineOr404(slug);
  const today = businessToday(property);
  const asked = query.check_in || query.check_out ? engineSearchQuery.safeParse({ check_in: query.check_in, check_out: query.check_out, adults: query.adults ?? "2", children: query.children ?? "0" }) : null;
  const values = { check_in: query.check_in ?? today, check_out: query.check_out ?? addDays(today, 1), adults: query.adults ?? "2", children: query.children ?? "0" };
  let results: Awaited<ReturnType<typeof searchStays>> | null = null;
  let problem = query.problem && problems.has(query.problem) ? query.problem : null;
  if (asked?.success) {
    const deps = await getApiDeps();
    try {
      await countGuestRequest(deps.limiter, "search", (await headers()).get(clientAddressHeader) || undefined);
      results = await searchStays({ db: deps.db, slug, query: asked.data });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error.code === "too_many_requests" ? "too_many_requests" : "invalid";
    }
  } else if (asked) problem = "invalid";
  const keep = { check_in: query.check_in, check_out: query.check_out, adults: query.adults, children: query.children, month: query.month };
  // The month of prices: the one asked for, else the arrival's, else this month; the party as searched.
  const party = asked?.success ? { adults: String(asked.data.adults), children: String(asked.data.children) } : { adults: "2", children: "0" };
  const calendarAsked = engineCalendarQuery.safeParse({ month: query.month ?? (asked?.success ? asked.data.check_in.slice(0, 7) : today.slice(0, 7)), ...party });
  const calendar = await priceCalendar({ db: (await getApiDeps()).db, slug, query: calendarAsked.success ? calendarAsked.data : { month: today.slice(0, 7), adults: 2, children: 0 } }).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "parameter_invalid") return null;
    throw error;
  });
  const url = `${publicOrigin((await headers()).get("host"))}/book/${slug}`;
  const jsonLd = searchJsonLd({ hotel: presentHotel(property), url, search: results });
  const guests = Number(values.adults) + Number(values.children);

  return (
    <GuestShell hotel={{ name: property.name, city: property.address.city }} locale={locale} languageLabel={t("language")} path={`/book/${slug}`} query={keep}>
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(jsonLd) }} />
      <h1 className="mb-4 text-2xl font-semibold">{t("heading")}</h1>
      <form method="get" action={`/book/${slug}`} className="mb-6 rounded-lg border border-stone-200 bg-white p-4" aria-labelledby="search-title">
        <h2 id="search-title" className="mb-3 text-base font-medium">
          {t("search.title")}
        </h2>
        <input type="hidden" name="lang" value={locale} />
        <StayFields
          today={today}
          values={values}
          labels={{ checkIn: t("search.checkIn"), checkOut: t("search.checkOut"), adults: t("search.adults"), children: t("search.children") }}
          button={
            <button type="submit" className={`col-span-2 sm:col-span-1 ${guestButton.primary}`}>
              {t("search.submit")}
            </button>
          }
        />
      </form>

      {problem ? (
        <p role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {problem === "invalid" ? t("search.invalid") : t(`notice.${problem as "unavailable"}`)}
        </p>
      ) : null}

      {results ? (
        <section aria-labelledby="results-title">
          <h2 id="results-title" className="text-lg font-semibold">
            {t("results.title", { dates: `${guestDay(results.stay.check_in, locale)} – ${guestDay(results.stay.check_out, locale)}` })}
          </h2>
          <p className="mb-4 text-sm text-stone-600">{t("results.party", { nights: results.stay.nights, adults: results.stay.adults, children: results.stay.children })}</p>
          {results.notice ? (
            <p role="status" className="rounded-md border border-stone-200 bg-white p-4 text-sm">
              {t(`notice.${results.notice}`, { guests })}
            </p>
          ) : (
            <ul className="space-y-4">
              {results.rooms.map((room) => (
                <li key={room.room_type_id} className="rounded-lg border border-stone-200 bg-white p-4">
                  <h3 className="text-base font-semibold">{room.name}</h3>
                  {room.description ? <p className="mt-1 text-sm text-stone-700">{room.description}</p> : null}
                  <p className="mt-1 text-sm text-stone-600">
                    {[room.beds, t("results.sleeps", { count: room.max_occupancy }), ...room.amenities].filter(Boolean).join(" · ")}
                  </p>
                  {room.available <= 3 ? <p className="mt-1 text-sm font-medium text-amber-800">{t("results.left", { count: room.available })}</p> : null}
                  <ul className="mt-3 divide-y divide-stone-100 border-t border-stone-100">
                    {room.offers.map((offer) => (
                      <li key={offer.rate_plan_id} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
                        <div className="min-w-0 text-sm">
                          <p className="font-medium">{offer.name}</p>
                          <p className="text-stone-600">{t(`meal.${offer.meal_plan}`)}</p>
                          <ul className="mt-1 space-y-0.5 text-stone-600">
                            <li>
                              {offer.policy.refundable && offer.policy.free_cancellation_until
                                ? t("policy.refundable", { deadline: guestMoment(offer.policy.free_cancellation_until, locale) })
                                : t("policy.nonRefundable")}
                            </li>
                            {offer.policy.no_show_fee && offer.policy.refundable ? <li>{t("policy.noShow", { amount: guestMoney(offer.policy.no_show_fee, locale) })}</li> : null}
                          </ul>
                        </div>
                        <div className="shrink-0 text-left sm:text-right">
                          <p className="text-sm text-stone-600">{t("results.total")}</p>
                          <p className="text-xl font-semibold">{guestMoney(offer.price.gross, locale)}</p>
                          {offer.price.tax.amount ? <p className="text-xs text-stone-600">{t("results.taxIncluded", { amount: guestMoney(offer.price.tax, locale) })}</p> : null}
                          <form method="post" action={`/book-api/${slug}/sessions`} className="mt-2">
                            {Object.entries({ ...results.stay, room_type_id: room.room_type_id, rate_plan_id: offer.rate_plan_id, lang: locale }).map(([name, value]) =>
                              name === "nights" ? null : <input key={name} type="hidden" name={name} value={String(value)} />,
                            )}
                            <button type="submit" className={guestButton.primary} aria-label={t("results.chooseLabel", { room: room.name, rate: offer.name })}>
                              {t("results.choose")}
                            </button>
                          </form>
                        </div>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      {/* After the rooms when dates are searched (what the guest asked for first), else under the form. */}
      {calendar ? (
        <div className={results ? "mt-6" : undefined}>
          <PriceCalendar calendar={calendar} locale={locale} path={`/book/${slug}`} keep={party} chosen={asked?.success ? asked.data.check_in : undefined} />
        </div>
      ) : null}
    </GuestShell>
  );
}

