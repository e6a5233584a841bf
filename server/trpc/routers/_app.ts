import { createCallerFactory, router } from "../init";
import { auditRouter } from "./audit";
import { foliosRouter } from "./folios";
import { guestsRouter } from "./guests";
import { liveRouter } from "./live";
import { paymentsRouter } from "./payments";
import { propertiesRouter } from "./properties";
import { reservationsRouter } from "./reservations";

/** The dashboard's API: one sub-router per capability, each calling that capability's services. */
export const appRouter = router({
  properties: propertiesRouter,
  audit: auditRouter,
  guests: guestsRouter,
  reservations: reservationsRouter,
  folios: foliosRouter,
  payments: paymentsRouter,
  live: liveRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
