"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { PaymentDialog } from "@/components/reservations/folio-dialogs";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, FilterField, PageHeader, Select } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ConfirmDialog } from "@/components/ui/dialog";
import { DayText, MoneyText, usePropertyFormat } from "@/components/ui/property-format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";

type Output = inferRouterOutputs<AppRouter>["receivables"]["list"];
type Row = Output["data"][number];
type Kind = Row["kind"];

const kindWords: Record<Kind, string> = {
  credit_balance: "Owed to the guest",
  due_after_departure: "Due after departure",
  no_show: "No-show charge",
  cancellation: "Cancellation charge",
};
const stayWords: Record<Row["stay"]["status"], string> = { checked_out: "Checked out", no_show: "Did not arrive", cancelled: "Cancelled" };
const bucketWords: Record<Row["bucket"], string> = { days_0_30: "0–30 days", days_31_60: "31–60 days", days_61_90: "61–90 days", days_over_90: "Over 90 days" };
const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);
/** A credit (negative) as the amount to refund; never "-0.00". */
const refundable = (m: Row["amount"]) => ({ ...m, amount: Math.abs(m.amount) });

type Property = { id: string; name: string; currency: string; livemode: boolean };

/**
 * Accounts receivable of the property on screen: every ended stay whose folio still has a
 * balance, oldest first, with the ageing totals; a credit is refunded to the guest's own payment,
 * an amount due is taken as a payment.
 */
export function ReceivablesView({ property }: { property: Property }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const f = usePropertyFormat();
  const [kind, setKind] = useState<Kind | "">("");
  const [refunding, setRefunding] = useState<Row | null>(null);
  const [paying, setPaying] = useState<Row | null>(null);
  const list = useQuery({ ...trpc.receivables.list.queryOptions({ property_id: property.id, ...(kind ? { kind } : {}) }), placeholderData: keepPreviousData });
  const refresh = () => queryClient.invalidateQueries(trpc.receivables.list.queryFilter());
  const refund = useMutation(
    trpc.receivables.refundCredit.mutationOptions({
      onSuccess: async (r) => {
        if (r.currency) toast.success(`Refunded ${f.money({ amount: r.refunded, currency: r.currency })} to the guest's payment`);
        setRefunding(null);
        await refresh();
      },
    }),
  );

  const columns: ColumnDef<Row>[] = [
    {
      id: "guest",
      header: "Guest",
      meta: { primary: true },
      cell: ({ row: { original: r } }) => (
        <div>
          <Link href={`/reservations/${r.stay.reservation_id}`} className="font-medium text-teal-800 hover:underline">
            {r.guest.name}
          </Link>
          {r.group ? <div className="text-xs text-stone-500">Group: {r.group.name}</div> : null}
        </div>
      ),
    },
    {
      id: "stay",
      header: "Stay",
      cell: ({ row: { original: r } }) => (
        <div>
          <DayText date={r.stay.check_in} style="short" /> – <DayText date={r.stay.check_out} style="short" />
          <div className="text-xs text-stone-500">{stayWords[r.stay.status]}</div>
        </div>
      ),
    },
    { id: "what", header: "What", cell: ({ row: { original: r } }) => kindWords[r.kind] },
    {
      id: "due",
      header: "Due since",
      cell: ({ row: { original: r } }) => (
        <div>
          <DayText date={r.due_date} />
          <div className="text-xs text-stone-500">{days(r.age_days)}</div>
        </div>
      ),
    },
    {
      id: "amount",
      header: "Amount",
      meta: { numeric: true },
      cell: ({ row: { original: r } }) =>
        r.amount.amount < 0 ? (
          <span className="text-teal-800">
            <MoneyText value={refundable(r.amount)} /> <span className="text-xs">to refund</span>
          </span>
        ) : (
          <span className="font-medium text-stone-900">
            <MoneyText value={r.amount} /> <span className="text-xs font-normal text-stone-500">due</span>
          </span>
        ),
    },
    {
      id: "action",
      header: () => <span className="sr-only">Action</span>,
      cell: ({ row: { original: r } }) =>
        r.amount.amount < 0 ? (
          <Button variant="secondary" onClick={() => (refund.reset(), setRefunding(r))} aria-label={`Refund ${f.money(refundable(r.amount))} to ${r.guest.name}`}>
            Refund
          </Button>
        ) : (
          <Button variant="secondary" onClick={() => setPaying(r)} aria-label={`Take payment of ${f.money(r.amount)} from ${r.guest.name}`}>
            Take payment
          </Button>
        ),
    },
  ];

  const totals = list.data?.totals.find((t) => t.currency === property.currency);
  const failure = list.error ? callError(list.error).message : null;
  return (
    <>
      <PageHeader
        title="Receivables"
        description={`${property.name}: stays that have ended with money still owed, by the guest or to the guest, aged from the day it became due.`}
      />
      <section aria-labelledby="ageing-heading" className="mb-6">
        <h2 id="ageing-heading" className="sr-only">
          Ageing
        </h2>
        {list.data ? (
          <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            {(totals?.buckets ?? []).map((b) => (
              <li key={b.bucket} className="rounded-lg border border-stone-200 bg-white p-3 shadow-sm" data-testid={`bucket-${b.bucket}`}>
                <p className="text-xs font-medium uppercase tracking-wide text-stone-500">{bucketWords[b.bucket]}</p>
                <p className="mt-1 text-lg font-semibold tabular-nums text-stone-900">{f.money(b.due)}</p>
                <p className="text-xs text-stone-600">
                  due{b.credit.amount ? <>, {f.money(refundable(b.credit))} to refund</> : null}
                </p>
              </li>
            ))}
          </ul>
        ) : list.isError ? null : (
          <LoadingState rows={2} label="Loading the ageing totals…" />
        )}
        {totals ? (
          <p className="mt-3 text-sm text-stone-700">
            In all: <strong>{f.money(totals.due)}</strong> due from guests, <strong>{f.money(refundable(totals.credit))}</strong> to refund to guests.
          </p>
        ) : null}
      </section>
      <div className="mb-3 max-w-xs">
        <FilterField label="Show" htmlFor="receivable-kind">
          <Select id="receivable-kind" value={kind} onChange={(e) => setKind(e.target.value as Kind | "")}>
            <option value="">Everything open</option>
            {(Object.keys(kindWords) as Kind[]).map((k) => (
              <option key={k} value={k}>
                {kindWords[k]}
              </option>
            ))}
          </Select>
        </FilterField>
      </div>
      {failure && !list.data ? (
        <ErrorState message={failure} onRetry={() => list.refetch()} />
      ) : (
        <DataTable
          label="Open balances"
          columns={columns}
          data={list.data?.data}
          loading={list.isLoading}
          error={failure}
          onRetry={() => list.refetch()}
          fetching={list.isFetching}
          rowKey={(r) => r.folio_id}
          rowProps={(r) => ({ "data-testid": `receivable-${r.stay.reservation_id}` })}
          empty={{ title: kind ? "Nothing of this kind is open" : "Nothing is owed", children: "Every stay that has ended is settled: no balance due from a guest, no credit to refund." }}
        />
      )}
      <ConfirmDialog
        open={refunding !== null}
        onOpenChange={(o) => (o ? null : setRefunding(null))}
        title="Refund the credit"
        description={
          refunding ? (
            <>
              {f.money(refundable(refunding.amount))} goes back to {refunding.guest.name} on the payment it came from.
            </>
          ) : null
        }
        confirmLabel="Refund"
        pending={refund.isPending}
        error={refund.error ? callError(refund.error).message : null}
        onConfirm={() => refunding && refund.mutate({ folio_id: refunding.folio_id })}
      />
      {paying ? (
        <PaymentDialog
          key={paying.folio_id}
          reservationId={paying.stay.reservation_id}
          propertyId={property.id}
          balance={paying.amount}
          livemode={property.livemode}
          onDone={refresh}
          open
          onOpenChange={(o) => (o ? null : setPaying(null))}
        />
      ) : null}
    </>
  );
}
