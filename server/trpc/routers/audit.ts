import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { auditAreaOf, auditContext, listAudit } from "@/server/audit/audit";
import { presentAudit } from "@/server/audit/present";
import { can } from "@/lib/access";
import { router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

export const auditRouter = router({
  /** One object's trail; a role sees it only where it may see the object itself. */
  list: staffProcedure
    .input(z.strictObject({ object_type: z.string().min(1).max(64), object_id: z.string().min(1).max(64), ...listInput }))
    .query(async ({ ctx, input: { limit, cursor, object_type, object_id } }) => {
      if (!can(ctx.user.role, auditAreaOf(object_type)))
        throw new TRPCError({ code: "FORBIDDEN", message: "Your role does not give access to this." });
      const list = cursorList("audit.list", { object_type, object_id }, { limit, cursor });
      const page = await listAudit({ db: ctx.db, tenant: ctx.tenant, objectId: object_id, page: list.page });
      const context = await auditContext({ db: ctx.db, tenant: ctx.tenant, rows: page.data });
      return list.envelope(page, (row) => presentAudit(row, context));
    }),
});
