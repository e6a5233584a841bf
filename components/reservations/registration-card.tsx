import type { ReactNode } from "react";
import { formatDay } from "@/lib/dates";
import { formatMoney } from "@/lib/money";
import type { getRegistrationCard } from "@/server/guest-mail/guest-mail";
import { PrintButton } from "./print-button";

type Card = Awaited<ReturnType<typeof getRegistrationCard>>;

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-2 border-b border-stone-200 py-1.5">
    <dt className="text-stone-500">{label}</dt>
    <dd className="min-w-0 break-words">{children}</dd>
  </div>
);

/** A line to write on: what the guest fills in by hand at the desk. */
const Blank = ({ label }: { label: string }) => (
  <div className="grid grid-cols-[9rem_minmax(0,1fr)] items-end gap-2 py-2">
    <span className="text-stone-500">{label}</span>
    <span className="h-6 border-b border-stone-400" aria-hidden />
  </div>
);

/** The registration card the guest signs at check-in: the hotel, the guest, the stay and its rate, a signature line. Made for paper (A4 or Letter). */
export function RegistrationCard({ card }: { card: Card }) {
  const money = (amount: number) => formatMoney({ amount, currency: card.total.currency }, card.locale);
  const day = (d: string) => formatDay(d, card.locale, "long");
  const same = card.nightly.every((n) => n.amount === card.nightly[0]?.amount);
  return (
    <article className="mx-auto max-w-2xl bg-white p-6 text-sm text-stone-900 sm:p-10 print:max-w-none print:p-0">
      <div className="mb-6 flex items-start justify-between gap-4 print:hidden">
        <p className="text-stone-500">Print this card for the guest to sign.</p>
        <PrintButton />
      </div>
      <header className="mb-6 border-b-2 border-stone-800 pb-3">
        <h1 className="text-xl font-semibold">{card.hotel.name}</h1>
        {card.hotel.address.length ? <p className="text-stone-600">{card.hotel.address.join(", ")}</p> : null}
        <p className="mt-2 text-base font-medium">Registration card</p>
      </header>
      <section aria-label="Guest" className="mb-5">
        <h2 className="mb-1 font-semibold">Guest</h2>
        <dl>
          <Row label="Name">
            {card.guest.firstName} {card.guest.lastName}
          </Row>
          <Row label="E-mail">
            <span className="break-all">{card.contact.email ?? "—"}</span>
          </Row>
          <Row label="Phone">{card.contact.phone ?? "—"}</Row>
        </dl>
        <Blank label="Home address" />
        <Blank label="" />
        <Blank label="Nationality" />
        <Blank label="ID or passport no." />
      </section>
      <section aria-label="Stay" className="mb-5">
        <h2 className="mb-1 font-semibold">Stay</h2>
        <dl>
          <Row label="Arrival">{day(card.stay.checkIn)}</Row>
          <Row label="Departure">{day(card.stay.checkOut)}</Row>
          <Row label="Room">{card.room ? `Room ${card.room}, ${card.stay.roomType}` : `${card.stay.roomType} (room assigned at check-in)`}</Row>
          <Row label="Guests">
            {card.stay.adults} adult{card.stay.adults === 1 ? "" : "s"}
            {card.stay.children ? `, ${card.stay.children} child${card.stay.children === 1 ? "" : "ren"}` : ""}
          </Row>
          <Row label="Rate">
            {card.stay.ratePlan}
            {same && card.nightly.length ? `, ${money(card.nightly[0].amount)} a night` : ""}
          </Row>
          {!same ? (
            <Row label="Nightly">
              {card.nightly.map((n) => (
                <span key={n.date} className="block">
                  {formatDay(n.date, card.locale, "weekday")}: {money(n.amount)}
                </span>
              ))}
            </Row>
          ) : null}
          <Row label="Total">
            <strong>{money(card.total.amount)}</strong>
          </Row>
        </dl>
        {card.policy.length ? <p className="mt-2 text-stone-600">{card.policy.join(" ")}</p> : null}
      </section>
      <section aria-label="Signature" className="mt-10 break-inside-avoid">
        <p className="mb-10 text-stone-600">I agree to pay for my stay and the charges I incur, and to the hotel&apos;s terms above.</p>
        <div className="grid grid-cols-2 gap-8">
          <div>
            <div className="h-10 border-b border-stone-800" aria-hidden />
            <p className="mt-1 text-stone-500">Guest&apos;s signature</p>
          </div>
          <div>
            <div className="h-10 border-b border-stone-800" aria-hidden />
            <p className="mt-1 text-stone-500">Date</p>
          </div>
        </div>
      </section>
    </article>
  );
}
