import { z } from "zod";
import { access } from "@/lib/access";
import { cardEntryFor, connectProcessor, listProcessors, removeProcessor } from "@/server/processors/connections";
import { presentProcessor } from "@/server/processors/present";
import { processorConnectSchema } from "@/server/processors/schemas";
import { roles, router, staffProcedure } from "../init";

// Settings' card processor panel: owners only (access.paymentProcessor), the same services as
// /v1/payment_processors. Keys go in and never come out: only their hints.
const ownerProcedure = staffProcedure.use(roles(...access.paymentProcessor));
const paymentProcedure = staffProcedure.use(roles(...access.payments));

export const processorsRouter = router({
  /**
   * For the desk that takes cards (access.payments): whether a property's cards go through Stripe,
   * and the publishable key its Payment Element starts Stripe.js with. Never a secret.
   */
  cardEntry: paymentProcedure
    .input(z.strictObject({ property_id: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => cardEntryFor({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id })),
  list: ownerProcedure.query(async ({ ctx }) => (await listProcessors({ db: ctx.db, tenant: ctx.tenant })).map(presentProcessor)),
  connect: ownerProcedure
    .input(processorConnectSchema)
    .mutation(async ({ ctx, input }) => presentProcessor(await connectProcessor({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  remove: ownerProcedure.input(z.strictObject({ id: z.string().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const row = await removeProcessor({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id });
    return { id: row.id, object: "payment_processor" as const, deleted: true as const };
  }),
});
