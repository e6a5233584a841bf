import { z } from "@hono/zod-openapi";
import { guestMailKinds, type mailOutbox } from "@/db/schema";
import { idOf, timestamp } from "@/server/schemas";
import { mailStatus } from "@/server/events/mail-outbox";

const guestMailStatuses = ["sent", "pending", "failed", "kept"] as const;

export const guestMailSchema = z
  .object({
    id: z.string().openapi({ example: "mail_3kTMd8Qw1bZx7yR2pLcV9nHf" }),
    object: z.literal("guest_email"),
    kind: z.enum(guestMailKinds),
    reservation_id: idOf("res"),
    to: z.string().nullable().openapi({ description: "null once the guest was erased." }),
    subject: z.string(),
    status: z.enum(guestMailStatuses).openapi({
      description:
        "`sent`; `pending` (queued, or retrying after a failed attempt); `failed` (given up); `kept` (never sent: a sandbox guest's mail, or the guest was erased first).",
    }),
    created_at: timestamp,
    sent_at: timestamp.nullable(),
  })
  .openapi("GuestEmail");

type MailRow = typeof mailOutbox.$inferSelect;

export const presentGuestMail = (m: MailRow) => ({
  id: m.id,
  object: "guest_email" as const,
  kind: m.kind!,
  reservation_id: m.reservationId!,
  to: m.to,
  subject: m.subject,
  status: mailStatus(m),
  created_at: m.createdAt.toISOString(),
  sent_at: m.sentAt?.toISOString() ?? null,
});
