import { ApiError } from "@/server/errors";

/** Which data set the dashboard shows: the same two names as the `Service-Environment` header. */
export type Environment = "live" | "sandbox";

/** The cookie that remembers the header switch's position. */
export const environmentCookie = "innkeep_environment";
/** The cookie that remembers which property the header shows, when the account has several. */
export const propertyCookie = "innkeep_property";
/** The header the dashboard's tRPC client sends, so every call names the data set on screen. */
export const environmentHeader = "service-environment";

const isEnvironment = (value: unknown): value is Environment => value === "live" || value === "sandbox";

/** The cookie's value as an environment; anything else (or nothing) is live. */
export const environmentFromCookie = (value: string | undefined): Environment => (value === "sandbox" ? "sandbox" : "live");

/** A header sent by the client wins over the cookie; a wrong value is refused as on `/v1`. */
export function resolveEnvironment(header: string | null | undefined, cookie: string | undefined): Environment {
  if (header === null || header === undefined) return environmentFromCookie(cookie);
  if (!isEnvironment(header)) {
    throw new ApiError("invalid_environment", `Service-Environment must be 'live' or 'sandbox', not '${header}'.`, {
      param: "Service-Environment",
      location: "header",
    });
  }
  return header;
}
