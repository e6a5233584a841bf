import { createCallerFactory, router } from "../init";
import { auditRouter } from "./audit";
import { guestsRouter } from "./guests";
import { propertiesRouter } from "./properties";
import { ratesRouter } from "./rates";
import { reportsRouter } from "./reports";
import { settingsRouter } from "./settings";

/** The dashboard's API: one sub-router per capability, each calling that capability's services. */
export const appRouter = router({
  properties: propertiesRouter,
  audit: auditRouter,
  guests: guestsRouter,
  rates: ratesRouter,
  reports: reportsRouter,
  settings: settingsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
