import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { timestamp } from "@/server/schemas";
import { resetSandbox } from "./reset";

export const sandboxOperations = [
  // POST /v1/sandbox/reset: restore the seeded sandbox hotel (sandbox only, any scope)
  defineOperation({
    method: "post", path: "/sandbox/reset", operationId: "resetSandbox", summary: "Reset the sandbox to its seeded hotel", tag: "Sandbox", scope: null,
    body: z.strictObject({}).openapi("SandboxResetRequest"),
    response: z.object({ object: z.literal("sandbox_reset"), livemode: z.literal(false), property_id: z.string(), reset_at: timestamp }).openapi("SandboxReset"),
    handler: async ({ ctx }) => resetSandbox(ctx),
  }),
];
