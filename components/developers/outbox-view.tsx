"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, PageHeader, type BadgeTone } from "@/components/ui";
import { Pager } from "@/components/ui/data-table";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { MailHeldBanner } from "@/components/guest-mail/mail-held-banner";
import { guestMailKindWords, plural, wordFor } from "@/lib/words";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { When } from "./common";

type Mail = inferRouterOutputs<AppRouter>["developers"]["outbox"]["list"]["data"][number];
type State = Mail["state"];

const stateWords: Record<State, { label: string; tone: BadgeTone; says: string }> = {
  sent: { label: "Sent", tone: "teal", says: "Sent." },
  queued: { label: "Queued", tone: "blue", says: "Waiting its turn: it goes within a minute." },
  held: { label: "Held: no mail server", tone: "amber", says: "Held: no mail server is set up, so nothing can go. It goes once one is." },
  retrying: { label: "Retrying", tone: "amber", says: "An attempt failed; it is tried again shortly." },
  failed: { label: "Failed", tone: "red", says: "Given up after every attempt failed." },
  no_address: { label: "Not sent", tone: "neutral", says: "Not sent: there was no one to send it to." },
  sandbox: { label: "Not sent (sandbox)", tone: "neutral", says: "Not sent: mail to sandbox guests is kept here, never sent." },
};

/** Who a mail is for, in words, also when there is nobody: an erased guest, no developer contact. */
const recipient = (m: Mail) => m.to ?? (m.guest_mail ? "the guest (address erased on request)" : "nobody: no developer contact is set in Settings");
/** What the mail is: a guest e-mail's kind, or the platform's notice to the developer contact. */
const what = (m: Mail) => (m.kind ? `${wordFor(guestMailKindWords, m.kind)} e-mail to a guest` : "Notice to the developer contact");

/** /developers/outbox: every e-mail the hotel's Innkeep sends or holds, as a person reads it, with a preview and "Send again". */
export function OutboxView() {
  const trpc = useTRPC();
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useQuery({
    ...trpc.developers.outbox.list.queryOptions({ cursor, limit: 20 }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
  return (
    <>
      <PageHeader title="Mail outbox" description="E-mails to guests (confirmations, changes, cancellations) and notices to your developer contact: sent, waiting or held." />
      <MailHeldBanner outboxLink={false} />
      {list.error && !list.data ? (
        <ErrorState message={callError(list.error).message} onRetry={() => list.refetch()} />
      ) : !list.data ? (
        <LoadingState />
      ) : !list.data.data.length ? (
        <EmptyState title="No mail yet">Booking confirmations to guests, and notices to your developer contact, appear here.</EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Mail">
          {list.data.data.map((m) => (
            <MailItem key={m.id} mail={m} />
          ))}
        </ul>
      )}
      <Pager page={list.data} onCursor={setCursor} />
    </>
  );
}

function MailItem({ mail: m }: { mail: Mail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const state = stateWords[m.state];
  const resend = useMutation(
    trpc.developers.outbox.resend.mutationOptions({
      onSuccess: async (copy) => {
        toast.success(`Sent again to ${copy.to}: ${stateWords[copy.state].label.toLowerCase()}.`);
        await Promise.all([queryClient.invalidateQueries(trpc.developers.outbox.list.queryFilter()), queryClient.invalidateQueries(trpc.mail.status.queryFilter())]);
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  return (
    <li className="rounded-lg border border-stone-200 bg-white shadow-sm" data-testid="mail">
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-2 px-4 py-3 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600">
          <span className="min-w-0">
            <span className="block break-words text-sm font-medium text-stone-900">{m.subject}</span>
            <span className="block break-words text-xs text-stone-600">
              {what(m)} · to {recipient(m)} · <When at={m.created_at} />
            </span>
          </span>
          <Badge tone={state.tone}>{state.label}</Badge>
        </summary>
        <div className="space-y-3 border-t border-stone-100 px-4 py-3 text-sm">
          <p className="text-stone-700">
            {m.state === "sent" && m.sent_at ? (
              <>
                Sent <When at={m.sent_at} />.
              </>
            ) : (
              state.says
            )}
            {m.attempts > 0 && m.state !== "sent" ? ` ${plural(m.attempts, "attempt")} so far.` : ""}
          </p>
          {m.last_error ? <p className="rounded bg-red-50 px-2 py-1 text-red-800">The mail server answered: {m.last_error}</p> : null}
          {open ? (
            m.html ? (
              // The HTML as sent, in a sandboxed frame: no script runs, nothing of the page reaches it.
              <iframe title={`Preview of “${m.subject}”`} sandbox="" srcDoc={m.html} className="h-[50vh] w-full rounded border border-stone-200 bg-white" />
            ) : (
              <div className="whitespace-pre-wrap break-words rounded-md border border-stone-200 bg-stone-50 p-3 text-stone-800" data-testid="mail-text">
                {m.text}
              </div>
            )
          ) : null}
          {m.to ? (
            <Button variant="secondary" disabled={resend.isPending} onClick={() => resend.mutate({ id: m.id })}>
              {resend.isPending ? "Sending…" : "Send again"}
            </Button>
          ) : null}
        </div>
      </details>
    </li>
  );
}
