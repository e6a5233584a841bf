import { z } from "zod";

/** OAuth and API-key scopes (specification, Authentication). A write scope does not imply read. */
export const scopes = [
  "reservations:read",
  "reservations:write",
  "rooms:read",
  "rooms:write",
  "payments:read",
  "payments:write",
  "webhooks:manage",
  "reports:read",
] as const;

export type Scope = (typeof scopes)[number];
export const scopeSchema = z.enum(scopes);

export const scopeDescriptions: Record<Scope, string> = {
  "reservations:read": "Read reservations, guests and folios",
  "reservations:write": "Create, modify and cancel reservations",
  "rooms:read": "Read room types, inventory and availability",
  "rooms:write": "Update rates, inventory and room attributes",
  "payments:read": "Read payment history and refunds",
  "payments:write": "Charge, refund and void payments",
  "webhooks:manage": "Create, update and delete webhook endpoints",
  "reports:read": "Export revenue, occupancy and production reports",
};

/** Parses "a b" or "a+b"; unknown scopes come back separately so callers can name them. */
export function parseScopes(text: string): { valid: Scope[]; unknown: string[] } {
  const parts = text.split(/[\s+]+/).filter(Boolean);
  const valid: Scope[] = [];
  const unknown: string[] = [];
  for (const part of parts) {
    if ((scopes as readonly string[]).includes(part)) valid.push(part as Scope);
    else unknown.push(part);
  }
  return { valid: [...new Set(valid)], unknown };
}
