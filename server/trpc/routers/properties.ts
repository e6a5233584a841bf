import { z } from "zod";
import { listProperties } from "@/server/properties/properties";
import { presentProperty } from "@/server/properties/present";
import { access } from "@/server/staff/access";
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
});
