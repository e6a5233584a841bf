import { getTranslations } from "next-intl/server";
import { addDays, formatGuestDay, weekdayOf, type IsoDate } from "@/lib/dates";
import { shortAmount } from "@/lib/money";
import type { GuestLocale } from "@/lib/guest-locale";
import type { CalendarDay, priceCalendar } from "@/server/booking-engine/calendar";
import { guestDay, guestMoney, guestQuery } from "./guest-words";

type Calendar = Awaited<ReturnType<typeof priceCalendar>>;

/** Monday first: the week as hotels in the engine's languages print it. */
const mondayFirst = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;

/**
 * The month of prices on the search page, drawn on the server as plain links (no script): each
 * open day links to the search with that arrival (and the nights its price is for), a closed day
 * says why in words and links nowhere, and the months move by links too. A table, so a screen
 * reader reads the weekday over each day.
 */
export async function PriceCalendar({
  calendar,
  locale,
  path,
  keep,
  chosen,
}: {
  calendar: Calendar;
  locale: GuestLocale;
  path: string;
  /** What the search keeps on every link: the party and the language. */
  keep: { adults: string; children: string };
  /** The arrival already chosen, marked as the current date. */
  chosen?: IsoDate;
}) {
  const t = await getTranslations("calendar");
  const first = calendar.days[0].date;
  const monthName = formatGuestDay(first, locale, { month: "long", year: "numeric" });
  const currency = new Intl.DisplayNames([locale], { type: "currency" }).of(calendar.currency) ?? calendar.currency;
  const lead = mondayFirst.indexOf(weekdayOf(first) as (typeof mondayFirst)[number]);
  const cells: (CalendarDay | null)[] = [...Array.from({ length: lead }, () => null), ...calendar.days];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  // Column heads from a known Monday onwards, in the guest's language.
  const heads = mondayFirst.map((_, i) => addDays("2024-01-01", i));
  const monthLink = (month: string) => `${path}${guestQuery({ month, ...keep, lang: locale })}`;

  return (
    <section aria-labelledby="calendar-title" className="mb-6 rounded-lg border border-stone-200 bg-white p-3 sm:p-4">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 id="calendar-title" className="text-base font-medium">
          {t("title")}
        </h2>
        <nav aria-label={t("months")} className="flex items-center gap-1">
          {calendar.previous ? (
            <a href={monthLink(calendar.previous)} className={navLink} rel="nofollow">
              <span aria-hidden="true">‹ </span>
              {t("previous")}
            </a>
          ) : null}
          {calendar.next ? (
            <a href={monthLink(calendar.next)} className={navLink} rel="nofollow">
              {t("next")}
              <span aria-hidden="true"> ›</span>
            </a>
          ) : null}
        </nav>
      </div>
      <p className="mb-3 text-sm text-stone-600">{t("hint", { currency })}</p>
      <table className="w-full table-fixed border-collapse text-center">
        <caption className="mb-2 text-left text-sm font-semibold first-letter:uppercase">{monthName}</caption>
        <thead>
          <tr>
            {heads.map((day) => (
              <th key={day} scope="col" abbr={formatGuestDay(day, locale, { weekday: "long" })} className="pb-1 text-xs font-medium text-stone-600">
                {formatGuestDay(day, locale, { weekday: "narrow" })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((day, i) => (
                <td key={day?.date ?? `blank-${w}-${i}`} className="p-0.5 align-top">
                  {day ? <Day day={day} locale={locale} t={t} href={day.open ? `${path}${guestQuery({ check_in: day.date, check_out: addDays(day.date, day.nights), ...keep, lang: locale })}` : null} current={day.date === chosen} /> : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type T = Awaited<ReturnType<typeof getTranslations<"calendar">>>;

function Day({ day, locale, t, href, current }: { day: CalendarDay; locale: GuestLocale; t: T; href: string | null; current: boolean }) {
  const number = Number(day.date.slice(8));
  if (day.open && href) {
    const price = guestMoney(day.price, locale);
    const label = day.nights > 1 ? t("openNights", { day: guestDay(day.date, locale), price, nights: day.nights }) : t("open", { day: guestDay(day.date, locale), price });
    return (
      <a
        href={href}
        aria-current={current ? "date" : undefined}
        className={`flex min-h-14 flex-col items-center justify-start rounded-md border px-0.5 py-1 text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600 ${current ? "border-teal-700 bg-teal-50" : "border-stone-200 hover:border-teal-700 hover:bg-teal-50"}`}
      >
        {/* The name read out starts with what is seen (the day and the price), then says it in full. */}
        <span className="text-sm font-medium">{number}</span>{" "}
        <span className="text-[11px] leading-tight text-teal-900">{shortAmount(day.price, locale)}</span>{" "}
        {day.nights > 1 ? <span className="text-[11px] leading-tight text-stone-600">{t("nights", { nights: day.nights })}</span> : null}
        <span className="sr-only">: {label}</span>
      </a>
    );
  }
  if (!day.open && day.reason === "past") {
    return (
      <span className="flex min-h-14 flex-col items-center justify-start px-0.5 py-1 text-stone-500">
        <span className="text-sm">{number}</span>
        <span className="sr-only">{t("reason.past")}</span>
      </span>
    );
  }
  return (
    <span className="flex min-h-14 flex-col items-center justify-start rounded-md bg-stone-100 px-0.5 py-1 text-stone-700">
      <span className="text-sm line-through decoration-stone-500">{number}</span>
      <span className="hyphens-auto break-words text-[11px] leading-tight" lang={locale}>
        {t(`reason.${day.open ? "closed" : day.reason}`)}
      </span>
    </span>
  );
}

const navLink =
  "inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-teal-800 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600";
