import { createHash } from "node:crypto";
import type { Tenant } from "@/server/tenancy";

/**
 * The key the processor is given for a call that moves money or saves a card: from the request's
 * Idempotency-Key where there is one (so Innkeep's retry of the same request is the same call at
 * Stripe), else from Innkeep's own id of what is made; scoped by account and environment, hashed,
 * so no key of Innkeep's reaches Stripe.
 */
export function processorIdempotencyKey(tenant: Pick<Tenant, "accountId" | "livemode">, what: string, requestKey: string | undefined, ownId: string): string {
  const source = requestKey ? `key:${requestKey}` : `id:${ownId}`;
  return `innkeep-${what}-${createHash("sha256").update(`${tenant.accountId}:${tenant.livemode ? "live" : "test"}:${what}:${source}`).digest("hex").slice(0, 48)}`;
}

/**
 * Innkeep's ids every object it makes at the processor carries (a charge, a card's customer and
 * setup), so what Stripe holds can be traced to the account and data set it belongs to, and a
 * charge whose answer was lost found again (`chargeToRecord` reads them).
 */
export const processorEnvironment = (tenant: Pick<Tenant, "livemode">) => (tenant.livemode ? "live" : "sandbox");
export const tenantMetadata = (tenant: Pick<Tenant, "accountId" | "livemode">) => ({ innkeep_account_id: tenant.accountId, innkeep_environment: processorEnvironment(tenant) });
