import { z } from "@hono/zod-openapi";
import { errorCodes, type ErrorCode } from "@/server/errors";

const codes = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];
const types = [...new Set(Object.values(errorCodes).map((e) => e.type))] as [string, ...string[]];

export const errorSchema = z
  .object({
    error: z.object({
      type: z.enum(types),
      code: z.enum(codes),
      message: z.string(),
      param: z.string().optional().openapi({ description: "Dotted path of the parameter at fault, e.g. `guest.email`." }),
      request_id: z.string(),
      payment_id: z.string().optional().openapi({ description: "Card errors: the failed payment, recorded." }),
      errors: z
        .array(
          z
            .object({
              code: z.enum(codes),
              param: z.string().optional().openapi({ description: "Dotted path of this parameter, e.g. `guest.email`." }),
              message: z.string(),
            })
            .openapi("ParameterFault"),
        )
        .optional()
        .openapi({
          description:
            "400 and 422 parameter errors where several parameters are at fault: every fault (the first, repeated in `code`, `param` and `message`, included), so one answer names every field to fix.",
        }),
      reason: z.string().optional().openapi({ description: "`restriction_violated`: which restriction (stop_sell, closed_to_arrival, closed_to_departure, min_stay, no_rate)." }),
    }),
  })
  .openapi("Error");

const statusText: Record<number, string> = {
  400: "Bad request",
  401: "Missing or invalid credentials",
  402: "Card error",
  403: "Permission denied",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Request too large",
  415: "Unsupported content type",
  422: "Invalid parameters",
  429: "Rate limit exceeded",
  500: "Internal error",
  503: "Service unavailable",
};

/** The error responses of every operation, from the one code table. */
export function errorResponses() {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, { status }] of Object.entries(errorCodes)) byStatus.set(status, [...(byStatus.get(status) ?? []), code as ErrorCode]);
  byStatus.set(400, [...(byStatus.get(400) ?? []), "parameter_invalid"]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: `${statusText[status]}: ${list.map((c) => `\`${c}\``).join(", ")}`, content: { "application/json": { schema: errorSchema } } },
    ]),
  );
}
