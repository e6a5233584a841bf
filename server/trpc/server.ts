import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDatabase } from "@/server/runtime";
import { environmentCookie, environmentFromCookie, propertyCookie } from "@/server/staff/data-set";
import { getStaffSession } from "@/server/next-auth/session";
import { createCaller } from "./routers/_app";

/**
 * For server components: the signed-in staff member, the data set the switch selects, and a
 * tRPC caller that runs the same procedures (and the same role checks) the browser calls.
 * Memoized per request.
 */
export const dashboardRequest = cache(async () => {
  const [session, jar, { db }] = await Promise.all([getStaffSession(), cookies(), getDatabase()]);
  const environment = environmentFromCookie(jar.get(environmentCookie)?.value);
  const caller = createCaller({ db, session, livemode: environment === "live" });
  return { session, environment, caller, chosenPropertyId: jar.get(propertyCookie)?.value };
});

/** The properties of the data set on screen, and the one the header shows (the chosen one, else the first). */
export const dashboardProperties = cache(async () => {
  const { caller, chosenPropertyId } = await dashboardRequest();
  const properties = (await caller.properties.list()).data;
  const current = properties.find((p) => p.id === chosenPropertyId) ?? properties[0] ?? null;
  return { properties, current };
});

/** The signed-in staff member for a dashboard page or layout; without a session, off to sign in. */
export async function requireStaff() {
  const request = await dashboardRequest();
  if (!request.session) redirect("/signin");
  return { ...request, session: request.session, user: request.session.user };
}
