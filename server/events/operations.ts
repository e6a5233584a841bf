import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idOf, idParam, queryTimestamp, timestamp } from "@/server/schemas";
import { getEvent, listEvents } from "./events";
import { presentEvent } from "./present";
import { eventTypes } from "./types";

export const eventSchema = z
  .object({
    id: idOf("evt"),
    object: z.literal("event"),
    type: z.enum(eventTypes),
    created_at: timestamp,
    api_version: z.string().openapi({ example: "2025-09-01" }),
    livemode: z.boolean(),
    property_id: z.string().nullable(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .openapi("Event");

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
