import { presentReservation } from "@/server/reservations/present";
import { applyStayChange, getTapeChart, previewStayChange, stayChangeSchema, tapeChartQuery } from "@/server/reservations/tape-chart";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The room tape chart: the same reservation services as the reservation page (room move,
// departure, modification), reached by dragging a stay. Those who may change stays may use it.
const chartProcedure = staffProcedure.use(roles(...access.reservations));

export const tapeChartRouter = router({
  /** Room types and rooms, the stays and the out-of-order blocks of a window of nights. */
  window: chartProcedure.input(tapeChartQuery).query(({ ctx, input }) => getTapeChart({ db: ctx.db, tenant: ctx.tenant, query: input })),
  /** What a drag would do to the stay's price, or why it would be refused; nothing is kept. */
  preview: chartProcedure.input(stayChangeSchema).query(({ ctx, input }) => previewStayChange({ db: ctx.db, tenant: ctx.tenant, change: input })),
  /** Saves the change the clerk confirmed, through the service its kind names (which puts it on the audit trail). */
  save: chartProcedure.input(stayChangeSchema).mutation(async ({ ctx, input }) => {
    const { kind, result } = await applyStayChange({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, change: input });
    return { kind, reservation: presentReservation(result) };
  }),
});
