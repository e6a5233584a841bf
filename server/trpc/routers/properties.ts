import { z } from "zod";
import { getProperty, listProperties, setWalkInsWithoutEmail } from "@/server/properties/properties";
import { businessToday } from "@/server/properties/business-date";
import { presentProperty } from "@/server/properties/present";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

export const propertiesRouter = router({
  /** The properties of the account in the data set on screen; every role sees their names. */
  list: staffProcedure
    .use(roles(...access.dashboard))
    .input(z.strictObject(listInput).default({ limit: 100 }))
    .query(async ({ ctx, input }) => {
      const list = cursorList("properties.list", {}, input);
      return list.envelope(await listProperties({ db: ctx.db, tenant: ctx.tenant, page: list.page }), presentProperty);
    }),
  /**
   * The property's business date ("today" for every date the dashboard shows or defaults to): the
   * calendar date, or the date the night audit (or the sandbox's advance_day) moved it on to.
   */
  businessDate: staffProcedure
    .use(roles(...access.dashboard))
    .input(z.strictObject({ id: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => ({ business_date: businessToday(await getProperty({ db: ctx.db, tenant: ctx.tenant, id: input.id })) })),
  /** Whether walk-ins may be booked without an e-mail at a property (owners and managers). */
  setWalkInsWithoutEmail: staffProcedure
    .use(roles(...access.settings))
    .input(z.strictObject({ id: z.string().min(1).max(64), allowed: z.boolean() }))
    .mutation(async ({ ctx, input }) =>
      presentProperty(await setWalkInsWithoutEmail({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, allowed: input.allowed })),
    ),
});
