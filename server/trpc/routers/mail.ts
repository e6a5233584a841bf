import { z } from "zod";
import { access } from "@/lib/access";
import { listOutboxMail } from "@/server/events/mail-outbox";
import { roles, router, staffProcedure } from "../init";

export const mailRouter = router({
  /** The account's mail outbox (circuit-breaker notices), newest first, each with its SMTP attempts. */
  list: staffProcedure
    .use(roles(...access.developers))
    .input(z.strictObject({ limit: z.number().int().min(1).max(100).default(50) }).default({ limit: 50 }))
    .query(({ ctx, input }) => listOutboxMail({ db: ctx.db, accountId: ctx.tenant.accountId, limit: input.limit })),
});
