"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/client";
import { inflect, plural } from "@/lib/words";

/**
 * Says so where mail is written or read (Settings → Property, the outbox) when no mail server is
 * configured: every e-mail, the guests' included, is then held in the outbox and none can go.
 */
export function MailHeldBanner({ outboxLink = true }: { outboxLink?: boolean }) {
  const trpc = useTRPC();
  const status = useQuery(trpc.mail.status.queryOptions());
  if (!status.data || status.data.mail_server) return null;
  const { waiting } = status.data;
  return (
    <div role="status" data-testid="mail-held" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
      <p className="font-medium">E-mail cannot be sent: no mail server is set up.</p>
      <p className="mt-0.5">
        {waiting ? `${plural(waiting, "e-mail")} ${inflect(waiting, { one: "is", other: "are" })} held` : "Guest e-mails and notices are held"} in the outbox until
        the owner sets up the hotel&apos;s mail server under{" "}
        <Link href="/settings" className="font-medium underline">
          Settings
        </Link>{" "}
        (or whoever runs Innkeep gives it one); they go out then.{" "}
        {outboxLink ? (
          <Link href="/developers/outbox" className="font-medium underline">
            See the outbox
          </Link>
        ) : null}
      </p>
    </div>
  );
}
