import type { Money } from "@/lib/money";
import { guestClock, guestDay, guestMoment, guestMoney } from "./guest-words";

type Words = (key: string, values?: Record<string, string | number>) => string;

/** The stay as the guest booked or is booking it: dates with the hotel's hours, room, rate, party, price and terms. */
export function StaySummary({
  t,
  locale,
  hotel,
  stay,
  room,
  rate,
  total,
  tax,
  policy,
}: {
  t: Words;
  locale: string;
  hotel: { check_in_time: string; check_out_time: string };
  stay: { check_in: string; check_out: string; nights: number; adults: number; children: number };
  room: string;
  rate: { name: string; meal_plan: string };
  total: Money | null;
  tax: Money | null;
  policy: { refundable: boolean; free_cancellation_until: string | null; no_show_fee: Money | null } | null;
}) {
  const rows: [string, string][] = [
    [t("confirmed.arrival"), `${guestDay(stay.check_in, locale)}, ${t("confirmed.from", { time: guestClock(hotel.check_in_time, locale) })}`],
    [t("confirmed.departure"), `${guestDay(stay.check_out, locale)}, ${t("confirmed.by", { time: guestClock(hotel.check_out_time, locale) })}`],
    [t("confirmed.room"), room],
    [t("confirmed.rate"), `${rate.name} · ${t(`meal.${rate.meal_plan}`)}`],
    [t("confirmed.guests"), t("results.party", { nights: stay.nights, adults: stay.adults, children: stay.children })],
  ];
  if (total) rows.push([t("confirmed.total"), `${guestMoney(total, locale)}${tax?.amount ? ` (${t("results.taxIncluded", { amount: guestMoney(tax, locale) })})` : ""}`]);
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-4">
      <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-stone-600">{label}</dt>
            <dd className="text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
      {policy ? (
        <ul className="mt-3 space-y-1 border-t border-stone-100 pt-3 text-sm text-stone-700">
          <li>
            {policy.refundable && policy.free_cancellation_until ? t("policy.refundable", { deadline: guestMoment(policy.free_cancellation_until, locale) }) : t("policy.nonRefundable")}
          </li>
          {policy.no_show_fee && policy.refundable ? <li>{t("policy.noShow", { amount: guestMoney(policy.no_show_fee, locale) })}</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
