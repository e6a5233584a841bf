"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { usePropertyFormat } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";

/**
 * "Run the night audit now" (owners and managers): closes the property's open business day by
 * hand with the very audit the scheduler runs, once its day is over, after a confirmation that
 * names who becomes a no-show (and what each is charged), who is due out and still in, and the
 * next business date. The flash report below, the header's business date and every list follow without a reload.
 */
export function RunNightAudit({ propertyId }: { propertyId: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const plan = useQuery({ ...trpc.reports.nightAuditPlan.queryOptions({ property_id: propertyId }), staleTime: 0 });
  const run = useMutation(
    trpc.reports.runNightAudit.mutationOptions({
      onSuccess: async (result) => {
        setConfirming(false);
        toast.success(
          result.ran
            ? `Business day of ${fmt.day(result.audit.business_date, "long")} closed.`
            : `The business day of ${fmt.day(result.audit.business_date, "long")} was already closed; nothing changed.`,
        );
        // A closed day moves the business date and changes every list, report and folio: ask again for all of it.
        await queryClient.invalidateQueries();
      },
    }),
  );
  const p = plan.data;
  return (
    <section className="rounded-lg border border-stone-200 bg-white px-4 py-4 shadow-sm" aria-labelledby="run-audit-title" data-testid="run-night-audit">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="run-audit-title" className="text-sm font-semibold text-stone-800">
            Close the business day by hand
          </h2>
          <p className="text-sm text-stone-600">
            {p ? <>Open business day: {fmt.day(p.business_date, "long")}.</> : plan.error ? null : "Looking at the open business day…"}
          </p>
        </div>
        <Button disabled={!p?.open || run.isPending} onClick={() => (run.reset(), setConfirming(true))}>
          Run the night audit now
        </Button>
      </div>
      {plan.error ? <Alert>{callError(plan.error).message}</Alert> : null}
      {p && !p.open ? (
        <p className="mt-2 text-sm text-stone-700" data-testid="audit-too-early">
          {p.reason}
        </p>
      ) : null}
      {p?.open ? (
        <ConfirmDialog
          open={confirming}
          onOpenChange={(open) => !run.isPending && setConfirming(open)}
          title={`Close the business day of ${fmt.day(p.business_date, "long")}?`}
          description={
            <>
              The night audit runs now instead of at its hour, once: the day&apos;s flash report is written and the business date moves to{" "}
              {fmt.day(p.next_business_date, "long")}. It cannot be undone.
            </>
          }
          confirmLabel="Run the night audit"
          pending={run.isPending}
          error={run.error ? callError(run.error).message : undefined}
          onConfirm={() => run.mutate({ property_id: propertyId, business_date: p.business_date })}
        >
          <div className="space-y-3 text-sm text-stone-700" data-testid="audit-plan">
            {p.arrivals.length ? (
              <div>
                <p className="font-medium text-stone-800">
                  {p.arrivals.length === 1 ? "This arrival has not come and will be marked a no-show and charged:" : `These ${p.arrivals.length} arrivals have not come and will be marked no-shows and charged:`}
                </p>
                <ul className="mt-1 list-disc pl-5" aria-label="Arrivals to be marked no-shows">
                  {p.arrivals.map((a) => (
                    <li key={a.reservation_id}>
                      {a.guest_name}, arriving {fmt.day(a.check_in, "medium")}: {a.fee.amount ? `no-show fee ${fmt.money(a.fee)}` : "no fee under their rate plan"}
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p>Every arrival of the day has come: no one will be marked a no-show.</p>
            )}
            {p.departures.length ? (
              <div>
                <p className="font-medium text-stone-800">Due out and still in house (flagged, not checked out):</p>
                <ul className="mt-1 list-disc pl-5" aria-label="Departures still in house">
                  {p.departures.map((d) => (
                    <li key={d.reservation_id}>
                      {d.guest_name}
                      {d.room_number ? `, room ${d.room_number}` : ""}, due out {fmt.day(d.check_out, "medium")}
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p>No guest due out is still in house.</p>
            )}
          </div>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
