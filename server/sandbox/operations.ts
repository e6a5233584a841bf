import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { timestamp } from "@/server/schemas";
import { nightAuditSchema } from "@/server/night-audit/schemas";
import { advanceSandboxDay } from "./advance-day";
import { resetSandbox } from "./reset";

export const sandboxOperations = [
  // POST /v1/sandbox/reset: restore the seeded sandbox hotel (sandbox only, any scope)
  defineOperation({
    method: "post", path: "/sandbox/reset", operationId: "resetSandbox", summary: "Reset the sandbox to its seeded hotel", tag: "Sandbox", scope: null,
    body: z.strictObject({}).openapi("SandboxResetRequest"),
    response: z.object({ object: z.literal("sandbox_reset"), livemode: z.literal(false), property_id: z.string(), reset_at: timestamp }).openapi("SandboxReset"),
    handler: async ({ ctx }) => resetSandbox(ctx),
  }),
  // POST /v1/sandbox/advance_day: run the night audit now and move the sandbox's business date a day on
  defineOperation({
    method: "post", path: "/sandbox/advance_day", operationId: "advanceSandboxDay", summary: "Run the night audit and advance the sandbox a day", tag: "Sandbox", scope: null,
    description:
      "Sandbox only, any scope. Runs the night audit of each sandbox property (or of `property_id`) at once: confirmed arrivals of the current business day that never arrived become no-shows with their rate plan's fee, departures still in house are flagged, the day's flash report is written and `night_audit.completed` is emitted; the property's business date (its \"today\" for bookings, check-in and check-out) moves a day forward.",
    body: z.strictObject({ property_id: z.string().min(1).optional() }).openapi("SandboxAdvanceDayRequest"),
    response: z.object({ object: z.literal("sandbox_advance_day"), livemode: z.literal(false), audits: z.array(nightAuditSchema) }).openapi("SandboxAdvanceDay"),
    handler: async ({ ctx, body }) => advanceSandboxDay({ ...ctx, propertyId: body.property_id }),
  }),
];
