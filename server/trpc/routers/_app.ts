import { createCallerFactory, router } from "../init";
import { auditRouter } from "./audit";
import { developersRouter } from "./developers";
import { foliosRouter } from "./folios";
import { groupsRouter } from "./groups";
import { guestsRouter } from "./guests";
import { housekeepingRouter } from "./housekeeping";
import { inventoryRouter } from "./inventory";
import { liveRouter } from "./live";
import { mailRouter } from "./mail";
import { oauthRouter } from "./oauth";
import { paymentsRouter } from "./payments";
import { propertiesRouter } from "./properties";
import { receivablesRouter } from "./receivables";
import { reservationsRouter } from "./reservations";
import { ratesRouter } from "./rates";
import { reportsRouter } from "./reports";
import { settingsRouter } from "./settings";
import { processorsRouter } from "./processors";
import { setupRouter } from "./setup";
import { tapeChartRouter } from "./tape-chart";

/** The dashboard's API: one sub-router per capability, each calling that capability's services. */
export const appRouter = router({
  properties: propertiesRouter,
  audit: auditRouter,
  guests: guestsRouter,
  housekeeping: housekeepingRouter,
  inventory: inventoryRouter,
  reservations: reservationsRouter,
  groups: groupsRouter,
  folios: foliosRouter,
  payments: paymentsRouter,
  receivables: receivablesRouter,
  live: liveRouter,
  mail: mailRouter,
  oauth: oauthRouter,
  developers: developersRouter,
  rates: ratesRouter,
  reports: reportsRouter,
  settings: settingsRouter,
  processors: processorsRouter,
  setup: setupRouter,
  tapeChart: tapeChartRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
