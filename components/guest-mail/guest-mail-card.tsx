"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, type BadgeTone } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { usePropertyFormat } from "@/components/ui/property-format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { guestMailKindWords, guestMailStatusWords, wordFor } from "@/lib/words";

type Kind = "confirmation" | "modification" | "cancellation";
const statusTones: Record<string, BadgeTone> = { sent: "teal", pending: "amber", failed: "red", kept: "neutral" };

/** The reservation's guest e-mails: those queued or sent, each in words, and a preview of what one would say now. */
export function GuestMailCard({ reservationId, livemode, status }: { reservationId: string; livemode: boolean; status: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const mails = useQuery(trpc.reservations.mail.list.queryOptions({ id: reservationId }));
  const kind: Kind = status === "cancelled" ? "cancellation" : "confirmation";
  return (
    <Card title="Guest e-mails" actions={<MailPreview reservationId={reservationId} kind={kind} />}>
      {mails.error ? (
        <ErrorState message={callError(mails.error).message} onRetry={() => mails.refetch()} />
      ) : !mails.data ? (
        <LoadingState rows={2} label="Loading the e-mails…" />
      ) : !mails.data.length ? (
        <p className="text-sm text-stone-500">No e-mail has gone to the guest about this booking.</p>
      ) : (
        <ul className="divide-y divide-stone-100 text-sm" aria-label="E-mails to the guest">
          {mails.data.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium">{wordFor(guestMailKindWords, m.kind)}</span>
                <span className="text-stone-500"> · {m.to ?? "address erased"}</span>
              </span>
              <span className="flex items-center gap-2">
                <Badge tone={statusTones[m.status]}>
                  {m.status === "kept" && !livemode ? "Not sent (sandbox)" : m.held ? "Held: no mail server" : wordFor(guestMailStatusWords, m.status)}
                </Badge>
                <span className="text-stone-500">{fmt.moment(m.sent_at ?? m.created_at)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** "Preview confirmation e-mail": the mail exactly as it would be sent, composed by the same code, its HTML shown sandboxed. */
function MailPreview({ reservationId, kind }: { reservationId: string; kind: Kind }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [plain, setPlain] = useState(false);
  const preview = useQuery({ ...trpc.reservations.mail.preview.queryOptions({ id: reservationId, kind }), enabled: open });
  const label = `Preview ${wordFor(guestMailKindWords, kind).toLowerCase()} e-mail`;
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      size="lg"
      title={label}
      trigger={
        <Button variant="secondary" className="text-sm">
          {label}
        </Button>
      }
    >
      {preview.error ? (
        <ErrorState message={callError(preview.error).message} onRetry={() => preview.refetch()} />
      ) : !preview.data ? (
        <LoadingState rows={4} label="Composing the e-mail…" />
      ) : (
        <div className="space-y-3 text-sm">
          {!preview.data.enabled ? (
            <p className="rounded bg-amber-50 p-2 text-amber-900">Guest e-mails are turned off for this property: this e-mail would not be sent.</p>
          ) : null}
          {!preview.data.to ? (
            <p className="rounded bg-amber-50 p-2 text-amber-900">The guest has no e-mail address: nothing would be sent.</p>
          ) : null}
          <dl className="grid grid-cols-[5rem_minmax(0,1fr)] gap-y-1">
            <dt className="text-stone-500">To</dt>
            <dd className="break-all">{preview.data.to ?? "—"}</dd>
            <dt className="text-stone-500">Subject</dt>
            <dd data-testid="mail-subject">{preview.data.subject}</dd>
          </dl>
          <div className="flex gap-2" role="group" aria-label="Part of the e-mail">
            <Button variant={plain ? "secondary" : "primary"} className="text-xs" aria-pressed={!plain} onClick={() => setPlain(false)}>
              As the guest sees it
            </Button>
            <Button variant={plain ? "primary" : "secondary"} className="text-xs" aria-pressed={plain} onClick={() => setPlain(true)}>
              Plain text
            </Button>
          </div>
          {plain ? (
            <pre
              data-testid="mail-text"
              className="max-h-[50vh] overflow-auto whitespace-pre-wrap rounded border border-stone-200 bg-stone-50 p-3 font-mono text-xs"
            >
              {preview.data.text}
            </pre>
          ) : (
            // The HTML part as sent, in a sandboxed frame: no script runs, nothing of the page reaches it.
            <iframe
              title="The e-mail as the guest sees it"
              sandbox=""
              srcDoc={preview.data.html}
              className="h-[50vh] w-full rounded border border-stone-200 bg-white"
            />
          )}
        </div>
      )}
    </Dialog>
  );
}
