"use client";

import { useMutation } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button } from "@/components/ui";
import { toast } from "@/components/ui/toaster";

/**
 * The folio's invoice: a download once issued (check-out issues it), or, for a stay that ended
 * without a check-out (cancelled, no-show), a button that closes the folio into one.
 */
export function InvoiceActions({ reservationId, invoiceId, canIssue, onDone }: { reservationId: string; invoiceId: string | null; canIssue: boolean; onDone: () => void }) {
  const trpc = useTRPC();
  const issue = useMutation(
    trpc.folios.issueInvoice.mutationOptions({
      onSuccess: (invoice) => {
        toast.success(`Invoice ${invoice.number} issued.`);
        onDone();
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  if (invoiceId) {
    return (
      <a
        href={`/invoices/${invoiceId}/pdf`}
        download
        data-testid="download-invoice"
        className="inline-flex min-h-9 items-center gap-1.5 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
      >
        <Download className="h-4 w-4" aria-hidden /> Download invoice
      </a>
    );
  }
  if (!canIssue) return null;
  return (
    <Button variant="secondary" onClick={() => issue.mutate({ reservation_id: reservationId })} disabled={issue.isPending}>
      {issue.isPending ? "Issuing…" : "Issue invoice"}
    </Button>
  );
}
