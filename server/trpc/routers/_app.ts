import { createCallerFactory, router } from "../init";
import { guestsRouter } from "./guests";
import { mailRouter } from "./mail";
import { propertiesRouter } from "./properties";

/** The dashboard's API: one sub-router per capability, each calling that capability's services. */
export const appRouter = router({
  properties: propertiesRouter,
  guests: guestsRouter,
  mail: mailRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
