import type { AuditActor } from "@/server/audit/audit";
import type { RateLimits } from "@/server/plans";
import type { Scope } from "./scopes";

/** Who a bearer token speaks for. */
export type Principal = {
  kind: "api_key" | "oauth";
  credentialId: string;
  accountId: string;
  scopes: ReadonlySet<Scope>;
  allowedIps: readonly string[];
  /** null: every property of the account (API keys); a list for OAuth installs. */
  propertyIds: readonly string[] | null;
  limits: RateLimits;
  apiVersion: string;
  /**
   * Who the audit trail says made a change with this credential: the API key (id and name), or
   * the app (client id and name) with the staff member who installed it. Never a secret.
   */
  actor: AuditActor;
};
