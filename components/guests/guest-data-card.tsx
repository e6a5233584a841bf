"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";

/**
 * A guest's data, as the law asks (owners and managers): download everything held about the
 * guest as one file, or erase them on request, after a dialog that says what erasure does.
 */
export function GuestDataCard({ guestId, name, erased }: { guestId: string; name: string; erased: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const erase = useMutation(
    trpc.guests.erase.mutationOptions({
      onSuccess: async (guest) => {
        queryClient.setQueryData(trpc.guests.get.queryKey({ id: guestId }), guest);
        setOpen(false);
        toast.success("The guest's personal data was erased");
        await Promise.all([
          queryClient.invalidateQueries(trpc.guests.list.queryFilter()),
          queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
          queryClient.invalidateQueries(trpc.reservations.search.queryFilter()),
        ]);
      },
    }),
  );
  const download = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const data = await queryClient.fetchQuery({ ...trpc.guests.export.queryOptions({ id: guestId }), staleTime: 0 });
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `guest-data-${name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-")}.json`;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setExportError(callError(error).message);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Card title="Personal data">
      <div className="space-y-3 text-sm">
        {erased ? (
          <p className="text-stone-600">
            This guest&apos;s personal data was erased on request. The stays and their payments are kept for the hotel&apos;s accounts.
          </p>
        ) : (
          <p className="text-stone-600">
            On the guest&apos;s request: a copy of everything held about them (a file for computers, or a page for the guest to read and print), or erasure.
          </p>
        )}
        {exportError ? <p className="text-red-700">{exportError}</p> : null}
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={download} disabled={exporting}>
            {exporting ? "Preparing…" : "Download the guest's data"}
          </Button>
          <Link
            href={`/guests/${guestId}/data`}
            target="_blank"
            className="inline-flex items-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-teal-800 hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
          >
            Read it as a page
          </Link>
          {erased ? null : (
            <ConfirmDialog
              open={open}
              onOpenChange={(o) => (setOpen(o), erase.reset())}
              trigger={<Button variant="danger">Erase guest…</Button>}
              title={`Erase ${name}?`}
              danger
              confirmLabel="Erase for good"
              pending={erase.isPending}
              error={erase.error ? callError(erase.error).message : null}
              onConfirm={() => erase.mutate({ id: guestId, confirm: true })}
              description={
                <div className="space-y-2">
                  <p>
                    This cannot be undone. Everywhere Innkeep keeps them, the guest&apos;s name becomes &ldquo;Erased guest&rdquo;, and their e-mail,
                    phone, preferences, booking notes and e-mails are removed, in past history and webhook records too.
                  </p>
                  <p>
                    Their stays, folios, payments and refunds stay, for the hotel&apos;s accounts, under the anonymised name. A guest who is in house
                    cannot be erased until they check out.
                  </p>
                </div>
              }
            />
          )}
        </div>
      </div>
    </Card>
  );
}
