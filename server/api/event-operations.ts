import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam, queryTimestamp } from "@/server/schemas";
import { getEvent, listEvents } from "@/server/events/events";
import { presentEvent } from "@/server/events/present";
import { eventSchema } from "./event-payloads";
import { eventTypes } from "@/server/events/types";

const tag = "Events";

export const eventOperations = [
  // GET /v1/events: the event log, newest first
  defineOperation({
    method: "get", path: "/events", operationId: "listEvents", summary: "List events", tag, scope: "webhooks:manage",
    query: z.strictObject({
      type: z.enum(eventTypes).optional(),
      created_gte: queryTimestamp("Events created at or after this instant.").optional(),
      created_lte: queryTimestamp("Events created at or before this instant.").optional(),
    }),
    list: true, response: listSchema(eventSchema, "EventList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listEvents({ ...ctx, filters: query, page: list.page }), presentEvent),
  }),
  // GET /v1/events/{id}: one event with its payload
  defineOperation({
    method: "get", path: "/events/{id}", operationId: "getEvent", summary: "Retrieve an event", tag, scope: "webhooks:manage",
    params: idParam("evt"), response: eventSchema,
    handler: async ({ ctx, params }) => presentEvent(await getEvent({ ...ctx, id: params.id })),
  }),
];
