import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { eventTypes } from "@/server/events/types";
import { liveEvents } from "@/server/events/live";
import { can, type Area } from "@/lib/access";
import { router, staffProcedure } from "../init";

/**
 * Which roles may follow which events live, by resource: those who may see the resource, and
 * the housekeeping board's readers for the stays and inventory it marks, everyone for the night
 * audit (it moves the business date every page shows). Only ids and types
 * travel; each page refetches what its role may read.
 */
const liveAreas: Record<string, Area[]> = {
  reservation: ["reservations", "housekeepingRead"],
  guest: ["guests"],
  payment: ["payments"],
  housekeeping: ["housekeepingRead"],
  inventory: ["availability", "housekeepingRead"],
  rate: ["rates", "availability"],
  // Every page's "today" is the business date the audit moves: each role may hear that it ran.
  night_audit: ["dashboard"],
};

const resources = [...new Set(eventTypes.map((t) => t.split(".")[0]))] as [string, ...string[]];
/** An event type, or every type of a resource: `reservation.*`. */
const typePattern = z.union([z.enum(eventTypes), z.templateLiteral([z.enum(resources), ".*"])]);

export const liveRouter = router({
  /** New events of the data set on screen, as they commit (server-sent events). */
  events: staffProcedure.input(z.strictObject({ types: z.array(typePattern).min(1).max(20) })).subscription(async function* ({ ctx, input, signal }) {
    for (const pattern of input.types) {
      const areas = liveAreas[pattern.split(".")[0]] ?? [];
      if (!areas.some((area) => can(ctx.user.role, area)))
        throw new TRPCError({ code: "FORBIDDEN", message: `Your role cannot follow ${pattern} events.` });
    }
    const matches = (type: string) => input.types.some((p) => p === type || (p.endsWith(".*") && type.startsWith(p.slice(0, -1))));
    yield* liveEvents({ db: ctx.db, tenant: ctx.tenant, matches, signal });
  }),
});
