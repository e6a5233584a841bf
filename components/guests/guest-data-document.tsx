import type { ReactNode } from "react";
import { datesInWords, formatDay, formatMoment, formatTimeOfDay } from "@/lib/dates";
import { defaultLocale, formatMoney, propertyLocale, type Money } from "@/lib/money";
import { cardWords, guestMailKindWords, guestMailStatusWords, paymentStatusWords, plural, reservationStatusWords, sourceWords } from "@/lib/words";
import type { exportGuestForReading } from "@/server/guest-data/export-guest";
import { PrintButton } from "@/components/reservations/print-button";

type Readable = Awaited<ReturnType<typeof exportGuestForReading>>;
type Payment = Readable["data"]["folios"][number]["payments"][number];

const Row = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="grid grid-cols-[9rem_minmax(0,1fr)] gap-2 border-b border-stone-200 py-1.5">
    <dt className="text-stone-500">{label}</dt>
    <dd className="min-w-0 break-words">{children}</dd>
  </div>
);

const countryWords = (code: string) => {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
};
const yesNo = (value: boolean | undefined) => (value === undefined ? null : value ? "Yes" : "No");
const floorWords: Record<string, string> = { high: "A high floor", low: "A low floor" };

const paymentWords = (p: Payment) =>
  p.payment_method.type === "card"
    ? cardWords(p.payment_method.brand, p.payment_method.last4 ?? "")
    : p.payment_method.type === "cash"
      ? "Cash"
      : `Bank transfer${p.payment_method.reference ? ` (${p.payment_method.reference})` : ""}`;

/**
 * A guest's data export for a person to read and print (issue 39, point 6): the same document as
 * the JSON download, in words, with each amount in the hotel's currency format and each date and
 * moment on the hotel's calendar and clock. No id, code or minor unit is shown.
 */
export function GuestDataDocument({ readable }: { readable: Readable }) {
  const { data, properties, room_types, rate_plans } = readable;
  const first = Object.values(properties)[0];
  const place = { locale: first ? propertyLocale(first.country) : defaultLocale, timezone: readable.timezone };
  const placeOf = (propertyId: string) => {
    const p = properties[propertyId];
    return p ? { locale: propertyLocale(p.country), timezone: p.timezone } : place;
  };
  const g = data.guest;
  const prefs = data.preferences;
  const name = `${g.first_name} ${g.last_name}`;
  const address = g.address ? [g.address.line1, g.address.line2, [g.address.postal_code, g.address.city].filter(Boolean).join(" "), g.address.region, g.address.country ? countryWords(g.address.country) : null].filter(Boolean) : [];
  const room = [
    prefs.room.bed ? `Bed: ${prefs.room.bed}` : null,
    prefs.room.floor ? floorWords[prefs.room.floor] : null,
    prefs.room.smoking === undefined ? null : `Smoking: ${yesNo(prefs.room.smoking)}`,
    prefs.room.quiet === undefined ? null : `Quiet room: ${yesNo(prefs.room.quiet)}`,
    prefs.room.accessible === undefined ? null : `Accessible room: ${yesNo(prefs.room.accessible)}`,
    prefs.room.notes ? `Notes: ${prefs.room.notes}` : null,
  ].filter((x): x is string => !!x);
  const loyalty = [prefs.loyalty.program, prefs.loyalty.tier ? `${prefs.loyalty.tier} tier` : null, prefs.loyalty.number ? `member ${prefs.loyalty.number}` : null, prefs.loyalty.points === undefined ? null : plural(prefs.loyalty.points, "point")].filter(Boolean);

  return (
    <article className="mx-auto max-w-3xl bg-white p-6 text-sm text-stone-900 sm:p-10 print:max-w-none print:p-0" data-testid="guest-data-document">
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4 print:hidden">
        <p className="text-stone-500">The same data as the download, for the guest to read. Print it or save it as a PDF.</p>
        <PrintButton />
      </div>
      <header className="mb-6 border-b-2 border-stone-800 pb-3">
        <h1 className="text-xl font-semibold">Personal data held about {name}</h1>
        <p className="text-stone-600">Prepared {formatMoment(data.exported_at, place)}</p>
      </header>

      <section aria-labelledby="doc-guest" className="mb-6">
        <h2 id="doc-guest" className="mb-1 font-semibold">
          The guest
        </h2>
        <dl>
          <Row label="Name">{name}</Row>
          <Row label="E-mail">{g.email ?? (g.erased_at ? "Erased on request" : "None given")}</Row>
          <Row label="Phone">{g.phone ?? (g.erased_at ? "Erased on request" : "None given")}</Row>
          <Row label="Address">{address.length ? address.join(", ") : "None given"}</Row>
          <Row label="Guest since">{formatMoment(g.created_at, place)}</Row>
          {g.erased_at ? <Row label="Erased on request">{formatMoment(g.erased_at, place)}</Row> : null}
        </dl>
      </section>

      <section aria-labelledby="doc-preferences" className="mb-6">
        <h2 id="doc-preferences" className="mb-1 font-semibold">
          Preferences
        </h2>
        <dl>
          <Row label="Allergies">{prefs.allergies.length ? prefs.allergies.join(", ") : "None given"}</Row>
          <Row label="Room">{room.length ? room.join("; ") : "None given"}</Row>
          <Row label="Loyalty">{loyalty.length ? loyalty.join(", ") : "None given"}</Row>
        </dl>
      </section>

      <section aria-labelledby="doc-stays" className="mb-6">
        <h2 id="doc-stays" className="mb-2 font-semibold">
          Stays ({data.reservations.length})
        </h2>
        {data.reservations.length === 0 ? <p className="text-stone-600">No stays.</p> : null}
        {data.reservations.map((r, i) => {
          const at = placeOf(r.property_id);
          const money = (m: Money) => formatMoney(m, at.locale);
          const folio = data.folios.find((f) => f.reservation_id === r.id);
          return (
            <section key={r.id} aria-label={`Stay ${i + 1}`} className="mb-5 rounded border border-stone-200 p-3 print:break-inside-avoid" data-testid="doc-stay">
              <h3 className="font-medium">
                {room_types[r.room_type_id] ?? "A room"} at {properties[r.property_id]?.name ?? "the hotel"}: {formatDay(r.check_in, at.locale, "long")} to {formatDay(r.check_out, at.locale, "long")}
              </h3>
              <dl className="mt-1">
                <Row label="Status">{reservationStatusWords[r.status] ?? r.status}</Row>
                <Row label="Nights">{plural(r.nights, "night")}</Row>
                <Row label="Guests">
                  {plural(r.adults, "adult")}
                  {r.children ? `, ${plural(r.children, "child", "children")}` : ""}
                </Row>
                <Row label="Rate">{rate_plans[r.rate_plan_id] ?? "—"}</Row>
                <Row label="Price">{money(r.price.gross)}</Row>
                <Row label="Booked">
                  {formatMoment(r.created_at, at)} ({sourceWords[r.source] ?? "other"})
                </Row>
                {r.checked_in_at ? <Row label="Checked in">{formatMoment(r.checked_in_at, at)}</Row> : null}
                {r.late_check_out ? <Row label="Late check-out">{r.late_check_out.until ? `Until ${formatTimeOfDay(r.late_check_out.until, at.locale)}` : "Granted"}</Row> : null}
                {r.checked_out_at ? <Row label="Checked out">{formatMoment(r.checked_out_at, at)}</Row> : null}
                {r.cancelled_at ? (
                  <Row label="Cancelled">
                    {formatMoment(r.cancelled_at, at)}
                    {r.cancellation_reason ? `: ${r.cancellation_reason}` : ""}
                  </Row>
                ) : null}
                {r.notes ? <Row label="Notes">{r.notes}</Row> : null}
              </dl>
              {folio ? (
                <div className="mt-3">
                  <h4 className="text-xs font-semibold uppercase tracking-wide text-stone-600">Bill</h4>
                  <table className="mt-1 w-full text-left">
                    <thead className="sr-only">
                      <tr>
                        <th scope="col">Line</th>
                        <th scope="col">Amount</th>
                      </tr>
                    </thead>
                    <tbody>
                      {folio.charges.map((c) => (
                        <tr key={c.id} className="border-b border-stone-100">
                          <td className="py-1 pr-2">{datesInWords(c.description, at.locale)}</td>
                          <td className="py-1 text-right tabular-nums">{money(c.amount)}</td>
                        </tr>
                      ))}
                      {folio.payments.map((p) => (
                        <tr key={p.id} className="border-b border-stone-100">
                          <td className="py-1 pr-2">
                            Payment by {paymentWords(p)}, {formatMoment(p.created_at, at)} ({(paymentStatusWords[p.status] ?? p.status).toLowerCase()})
                          </td>
                          <td className="py-1 text-right tabular-nums">{money(p.amount)}</td>
                        </tr>
                      ))}
                      {folio.refunds.map((x) => (
                        <tr key={x.id} className="border-b border-stone-100">
                          <td className="py-1 pr-2">Refund, {formatMoment(x.created_at, at)}{x.reason ? `: ${x.reason}` : ""}</td>
                          <td className="py-1 text-right tabular-nums">{money(x.amount)}</td>
                        </tr>
                      ))}
                      <tr className="font-medium">
                        <td className="py-1 pr-2">{folio.balance.amount > 0 ? "Still to pay" : folio.balance.amount < 0 ? "Owed to the guest" : "Balance"}</td>
                        <td className="py-1 text-right tabular-nums">{money({ ...folio.balance, amount: Math.abs(folio.balance.amount) })}</td>
                      </tr>
                    </tbody>
                  </table>
                </div>
              ) : null}
            </section>
          );
        })}
      </section>

      <section aria-labelledby="doc-mail">
        <h2 id="doc-mail" className="mb-1 font-semibold">
          E-mails about the bookings ({data.emails.length})
        </h2>
        {data.emails.length === 0 ? (
          <p className="text-stone-600">None.</p>
        ) : (
          <ul className="space-y-1">
            {data.emails.map((m) => (
              <li key={m.id} className="border-b border-stone-100 py-1">
                <span className="font-medium">{guestMailKindWords[m.kind] ?? "E-mail"}</span>: &ldquo;{m.subject}&rdquo;, {guestMailStatusWords[m.status]?.toLowerCase() ?? "kept"}{" "}
                {m.sent_at ? `on ${formatMoment(m.sent_at, place)}` : `(written ${formatMoment(m.created_at, place)})`}
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
