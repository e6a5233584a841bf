import type { Db } from "@/db/client";
import { ApiError } from "@/server/errors";
import { environmentCookie, environmentHeader, resolveEnvironment } from "@/server/staff/data-set";
import type { StaffSession } from "@/server/next-auth/session";
import { toTRPCError } from "./errors";
import type { TRPCContext } from "./init";

/** Reads one cookie from a Cookie header. */
function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/**
 * The context of one HTTP call: the session from next-auth, and the data set from the
 * `Service-Environment` header the dashboard sends (else the switch's cookie).
 */
export function createContext({ db, session, headers }: { db: Db; session: StaffSession | null; headers: Headers }): TRPCContext {
  try {
    const environment = resolveEnvironment(headers.get(environmentHeader), cookieValue(headers.get("cookie"), environmentCookie));
    return { db, session, livemode: environment === "live" };
  } catch (error) {
    throw error instanceof ApiError ? toTRPCError(error) : error;
  }
}
