"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { AuditTrail } from "@/components/audit/audit-trail";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, PageHeader, cx } from "@/components/ui";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { AddChargeDialog, BankCheckButton, HoldActions, PaymentDialog, RefundDialog } from "./folio-dialogs";
import { CardOnFile } from "./card-on-file";
import { useCardEntry } from "@/components/processors/stripe-card";
import { usePropertyFormat } from "@/components/ui/property-format";
import { StayPriceBreakdown } from "./stay-price";
import { channelLabels, chargeableCard, disputeWords, housekeepingLabels, lateCheckOutWords, nightsLabel, paymentMethodWords, sourceLabels, statusLabels } from "./format";
import { GuestMailCard } from "@/components/guest-mail/guest-mail-card";
import { GuestPanel } from "./guest-panel";
import { CreditNoteDialog } from "./credit-notes";
import { DocumentList } from "./document-list";
import { InvoiceActions } from "./invoice-actions";
import { StayActions } from "./stay-actions";
import { plural } from "@/lib/words";
import { wallClockWords, type WallClock } from "@/lib/dates";

/**
 * The stay's rate plan and its cancellation terms as the guest meets them today: "Best available ·
 * free cancellation until Nov 26, 2026, 12:00 AM", "… · free cancellation has ended", or
 * "Non-refundable" alone when the plan's name already says so.
 */
function ratePlanWords(plan: { name: string; refundable: boolean; free_cancellation_until: WallClock | null }, locale: string) {
  const terms = !plan.refundable
    ? "non-refundable"
    : plan.free_cancellation_until
      ? `free cancellation until ${wallClockWords(plan.free_cancellation_until, locale)}`
      : "free cancellation has ended";
  const said = (text: string) => text.toLowerCase().replace(/[^a-z]/g, "");
  return said(plan.name).includes(said(terms)) ? plan.name : `${plan.name} · ${terms}`;
}

const paymentStatus: Record<string, { label: string; tone: "teal" | "red" | "amber" | "neutral" }> = {
  succeeded: { label: "Paid", tone: "teal" },
  failed: { label: "Declined", tone: "red" },
  authorized: { label: "Authorized", tone: "amber" },
  pending: { label: "Pending", tone: "amber" },
  voided: { label: "Voided", tone: "neutral" },
  partially_refunded: { label: "Partly refunded", tone: "amber" },
  refunded: { label: "Refunded", tone: "neutral" },
};

/** /reservations/{id}: the stay, the guest, the folio and the actions the state allows, with the history. */
export function ReservationDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const desk = useQuery(trpc.reservations.get.queryOptions({ id }));
  const folio = useQuery(trpc.folios.get.queryOptions({ reservation_id: id }));
  // A change made elsewhere (another desk, the API, the night audit's no-show) shows without a reload.
  useLiveInvalidate(
    ["reservation.*", "payment.*"],
    trpc.reservations.get.queryFilter({ id }),
    trpc.folios.get.queryFilter({ reservation_id: id }),
    trpc.audit.list.queryFilter(),
    trpc.reservations.mail.list.queryFilter({ id }),
  );
  const [paying, setPaying] = useState(false);
  const cardEntry = useCardEntry(desk.data?.reservation.property_id);
  const publishableKey = cardEntry.data?.publishable_key ?? null;
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries(trpc.reservations.get.queryFilter({ id })),
      queryClient.invalidateQueries(trpc.folios.get.queryFilter({ reservation_id: id })),
      queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
      queryClient.invalidateQueries(trpc.reservations.search.queryFilter()),
      // A change or a cancellation queues a guest e-mail: the panel shows it without a reload.
      queryClient.invalidateQueries(trpc.reservations.mail.list.queryFilter({ id })),
    ]);
  };

  const back = (
    <Link href="/reservations" className="text-sm text-stone-500 hover:text-stone-800">
      ← Reservations
    </Link>
  );
  if (desk.error) {
    const failure = callError(desk.error);
    return (
      <>
        {back}
        <div className="mt-4">
          <ErrorState
            message={failure.code === "resource_missing" ? "There is no such reservation in this data set." : failure.message}
            onRetry={failure.code === "resource_missing" ? undefined : () => desk.refetch()}
          />
        </div>
      </>
    );
  }
  if (!desk.data) {
    return (
      <>
        {back}
        <div className="mt-4">
          <LoadingState rows={6} label="Loading the reservation…" />
        </div>
      </>
    );
  }
  const d = desk.data;
  const r = d.reservation;
  const status = statusLabels[r.status];
  const f = folio.data;
  // A stay that ended without a check-out can be invoiced on request (check-out issues its own),
  // once its folio bills something: a free cancellation's empty folio has nothing to invoice.
  const ended = (r.status === "cancelled" || r.status === "no_show" || r.status === "checked_out") && !!f?.charges.length;
  const balance = f?.balance;
  // What the stay owes beyond the card holds on it: offered as "Hold more" on the latest hold.
  const holds = f?.payments.filter((p) => p.status === "authorized") ?? [];
  const lastHold = holds.at(-1);
  const uncovered = f ? Math.max(0, f.balance.amount - holds.reduce((sum, p) => sum + p.amount.amount, 0)) : 0;

  return (
    <>
      {back}
      <div className="mt-3">
        <PageHeader
          title={`${r.guest.first_name} ${r.guest.last_name}`}
          description={
            <span className="flex flex-wrap items-center gap-2">
              <Badge tone={status?.tone}>{status?.label ?? r.status}</Badge>
            </span>
          }
        />
      </div>
      <div className="mb-6">
        <StayActions desk={d} balance={balance} onDone={refresh} />
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <div className="space-y-6">
          <Card
            title="Stay"
            actions={
              <Link href={`/reservations/${id}/registration-card`} target="_blank" className="text-sm text-teal-800 hover:underline">
                Print registration card
              </Link>
            }
          >
            <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-y-2 text-sm">
              <dt className="text-stone-500">Dates</dt>
              <dd>
                {fmt.day(r.check_in, "long")} → {fmt.day(r.check_out, "long")} · {nightsLabel(r.nights)}
                {lateCheckOutWords(r, fmt.timeOfDay) ? (
                  <span className="block text-amber-900" data-testid="late-check-out">
                    {lateCheckOutWords(r, fmt.timeOfDay)}
                  </span>
                ) : null}
              </dd>
              <dt className="text-stone-500">Room type</dt>
              <dd>{d.room_type.name}</dd>
              <dt className="text-stone-500">Room</dt>
              <dd data-testid="room-number">
                {d.room
                  ? `Room ${d.room.number} (${housekeepingLabels[d.room.housekeeping_status] ?? d.room.housekeeping_status})`
                  : "Assigned at check-in"}
              </dd>
              <dt className="text-stone-500">Rate plan</dt>
              <dd>
                {ratePlanWords(d.rate_plan, fmt.locale)}
              </dd>
              <dt className="text-stone-500">Party</dt>
              <dd>
                {plural(r.adults, "adult")}
                {r.children ? `, ${plural(r.children, "child", "children")}` : ""}
              </dd>
              <dt className="text-stone-500">Price</dt>
              <dd data-testid="reservation-price">
                <span className="font-medium">{fmt.money(r.price.gross)}</span>
                <StayPriceBreakdown price={r.price} />
              </dd>
              {d.group ? (
                <>
                  <dt className="text-stone-500">Group</dt>
                  <dd>
                    <Link href={`/groups/${d.group.id}`} className="font-medium text-teal-800 underline">
                      {d.group.name}
                    </Link>
                    {d.group.billing === "master" ? " · billed to the group's master folio" : ""}
                  </dd>
                </>
              ) : null}
              <dt className="text-stone-500">Source</dt>
              <dd>
                {sourceLabels[r.source] ?? r.source}
                {r.channel ? ` · ${channelLabels[r.channel] ?? r.channel}` : ""}
              </dd>
              {/* Without Stripe, no card can be put on file: the row shows only a card already there. */}
              {r.guarantee || (cardEntry.data && (r.status === "confirmed" || r.status === "checked_in")) ? (
                <>
                  <dt className="text-stone-500">Card on file</dt>
                  <dd data-testid="card-on-file">
                    <CardOnFile stay={{ id: r.id, status: r.status, property_id: r.property_id, currency: r.total.currency, guarantee: r.guarantee }} onDone={refresh} />
                  </dd>
                </>
              ) : null}
              {r.deposit ? (
                <>
                  <dt className="text-stone-500">Deposit</dt>
                  <dd>{fmt.money(r.deposit)} asked by the rate plan at booking; the folio shows what is paid</dd>
                </>
              ) : null}
              {r.notes ? (
                <>
                  <dt className="text-stone-500">Notes</dt>
                  <dd className="whitespace-pre-wrap break-words">{r.notes}</dd>
                </>
              ) : null}
              {r.cancelled_at ? (
                <>
                  <dt className="text-stone-500">Cancelled</dt>
                  <dd>
                    {fmt.moment(r.cancelled_at)}
                    {r.cancellation_reason ? `: ${r.cancellation_reason}` : ""}
                  </dd>
                </>
              ) : null}
              {r.checked_in_at ? (
                <>
                  <dt className="text-stone-500">Checked in</dt>
                  <dd>{fmt.moment(r.checked_in_at)}</dd>
                </>
              ) : null}
              {r.checked_out_at ? (
                <>
                  <dt className="text-stone-500">Checked out</dt>
                  <dd>{fmt.moment(r.checked_out_at)}</dd>
                </>
              ) : null}
            </dl>
          </Card>
          <Card title="Guest" actions={<Link href={`/guests/${r.guest.id}`} className="text-sm text-teal-800 hover:underline">Guest profile</Link>}>
            <GuestPanel guestId={r.guest.id} />
          </Card>
          <GuestMailCard reservationId={id} livemode={r.livemode} status={r.status} />
        </div>
        <Card
          title="Folio"
          actions={
            f?.status === "open" ? (
              <div className="flex flex-wrap justify-end gap-2">
                <InvoiceActions reservationId={id} invoiceId={f.invoice_id} canIssue={ended} onDone={refresh} />
                <AddChargeDialog reservationId={id} currency={f.balance.currency} onDone={refresh} />
                <Button onClick={() => setPaying(true)}>Take payment</Button>
              </div>
            ) : f ? (
              <div className="flex flex-wrap items-center justify-end gap-2">
                <Badge>Closed</Badge>
                <InvoiceActions reservationId={id} invoiceId={f.invoice_id} canIssue={ended} onDone={refresh} />
                {f.invoice_id ? <CreditNoteDialog reservationId={id} currency={f.balance.currency} onDone={refresh} /> : null}
                {f.invoice_id ? <AddChargeDialog reservationId={id} currency={f.balance.currency} onDone={refresh} invoiced /> : null}
                {f.balance.amount > 0 ? <Button onClick={() => setPaying(true)}>Take payment</Button> : null}
              </div>
            ) : null
          }
        >
          {folio.error ? (
            <ErrorState message={callError(folio.error).message} onRetry={() => folio.refetch()} />
          ) : !f ? (
            <LoadingState rows={4} label="Loading the folio…" />
          ) : (
            <div className="space-y-5 text-sm">
              <section aria-label="Charges">
                <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Charges</h3>
                {f.charges.length === 0 ? (
                  <p className="text-stone-500">No charges.</p>
                ) : (
                  <ul className="divide-y divide-stone-100">
                    {f.charges.map((c) => (
                      <li key={c.id} className="flex justify-between gap-3 py-1.5">
                        <span className="min-w-0 break-words">
                          {fmt.words(c.description)}
                          {c.tax.amount !== 0 && c.kind !== "tax" ? (
                            <span className="block text-xs text-stone-500">
                              {c.taxes.map((t) => `${t.name} ${fmt.money(t.amount)}`).join(", ")}
                              {c.taxes.every((t) => t.inclusive) ? " included" : ""}
                            </span>
                          ) : null}
                        </span>
                        <span className="shrink-0 tabular-nums">{fmt.money(c.amount)}</span>
                      </li>
                    ))}
                  </ul>
                )}
                {f.totals.tax.amount !== 0 ? (
                  <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-3 gap-y-0.5 border-t border-stone-100 pt-2 text-stone-600" data-testid="folio-totals">
                    <dt>Net</dt>
                    <dd className="text-right tabular-nums">{fmt.money(f.totals.net)}</dd>
                    <dt>Taxes</dt>
                    <dd className="text-right tabular-nums">{fmt.money(f.totals.tax)}</dd>
                    <dt className="font-medium text-stone-800">Charges</dt>
                    <dd className="text-right font-medium tabular-nums text-stone-800">{fmt.money(f.totals.gross)}</dd>
                  </dl>
                ) : null}
              </section>
              <section aria-label="Payments">
                <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Payments</h3>
                {f.payments.length === 0 ? (
                  <p className="text-stone-500">No payments yet.</p>
                ) : (
                  <ul className="divide-y divide-stone-100">
                    {f.payments.map((p) => (
                      <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5" data-testid={`payment-${p.status}`}>
                        <span className="min-w-0">
                          {paymentMethodWords(p.payment_method)}{" "}
                          <Badge tone={paymentStatus[p.status]?.tone}>{paymentStatus[p.status]?.label ?? p.status}</Badge>
                          {p.failure_message ? <span className="block text-xs text-red-700">{p.failure_message}</span> : null}
                          {p.status === "pending" && p.next_action ? <span className="block text-xs text-amber-800">Waiting for the guest&apos;s bank check (3-D Secure)</span> : null}
                          {p.dispute ? (
                            <span className="block text-xs text-red-700" data-testid="payment-dispute">
                              {disputeWords(p.dispute, f.refunds.find((x) => x.dispute_id === p.dispute?.id)?.business_date ?? null, fmt)}
                            </span>
                          ) : null}
                        </span>
                        <span className="flex items-center gap-2">
                          {p.status === "pending" && p.next_action && publishableKey ? (
                            <BankCheckButton publishableKey={publishableKey} payment={{ id: p.id, next_action: p.next_action }} onDone={refresh} />
                          ) : null}
                          <span className={cx("tabular-nums", p.status === "failed" && "text-stone-500 line-through")}>{fmt.money(p.amount)}</span>
                          {p.status === "succeeded" || p.status === "partially_refunded" ? <RefundDialog payment={p} owed={f.balance.amount < 0 ? -f.balance.amount : null} onDone={refresh} /> : null}
                          {p.status === "authorized" ? <HoldActions payment={p} uncovered={p.id === lastHold?.id ? uncovered : 0} onDone={refresh} /> : null}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              {f.refunds.length ? (
                <section aria-label="Refunds">
                  <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">Refunds</h3>
                  <ul className="divide-y divide-stone-100">
                    {f.refunds.map((x) => (
                      <li key={x.id} className="flex justify-between gap-3 py-1.5">
                        <span className="min-w-0 break-words">{x.dispute_id ? "Taken back by the guest's bank (dispute)" : `Refund${x.reason ? `: ${x.reason}` : ""}`}</span>
                        <span className="shrink-0 tabular-nums">−{fmt.money(x.amount)}</span>
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
              <DocumentList title="Supplementary invoices" name="Invoice" pdfPath="invoices" testId="supplementary-invoice" documents={f.supplementary_invoices} />
              <DocumentList title="Credit notes" name="Credit note" pdfPath="credit-notes" testId="credit-note" documents={f.credit_notes} />
              {/* Who owes whom, in words: the guest (balance due) or the hotel (owed to the guest, to refund). */}
              <div className="flex items-baseline justify-between border-t border-stone-200 pt-3">
                <span className="font-medium text-stone-700" data-testid="folio-balance-label">
                  {f.balance.amount > 0 ? "Balance due" : f.balance.amount < 0 ? "Owed to guest" : "Balance"}
                </span>
                <span
                  className={cx("text-lg font-semibold tabular-nums", f.balance.amount > 0 ? "text-red-700" : f.balance.amount < 0 ? "text-amber-800" : "text-stone-900")}
                  data-testid="folio-balance"
                >
                  {fmt.money(f.balance.amount < 0 ? { ...f.balance, amount: -f.balance.amount } : f.balance)}
                </span>
              </div>
            </div>
          )}
        </Card>
      </div>
      {f && paying ? (
        <PaymentDialog reservationId={id} propertyId={r.property_id} balance={f.balance} livemode={r.livemode} cardOnFile={chargeableCard(r.guarantee)} onDone={refresh} open={paying} onOpenChange={setPaying} />
      ) : null}
      <div className="mt-6">
        <AuditTrail objectType="reservation" objectId={id} />
      </div>
    </>
  );
}
