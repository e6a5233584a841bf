import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { deleted, idParam } from "@/server/schemas";
import { getAvailability } from "./availability";
import { createHold, getInventory, listHolds, presentHold, releaseHold } from "./inventory";
import { availabilityQuery, availabilitySchema, holdCreateSchema, holdListQuery, holdSchema, inventoryCalendarSchema, inventoryQuery } from "./schemas";

const tag = "Inventory";

export const inventoryOperations = [
  // GET /v1/inventory: per night and room type, total, sold, out of order, held and available
  defineOperation({
    method: "get", path: "/inventory", operationId: "getInventory", summary: "Retrieve inventory", tag, scope: "rooms:read",
    query: inventoryQuery, response: inventoryCalendarSchema,
    handler: async ({ ctx, query }) => getInventory({ ...ctx, query }),
  }),
  // GET /v1/inventory/holds: rooms held back from sale
  defineOperation({
    method: "get", path: "/inventory/holds", operationId: "listHolds", summary: "List inventory holds", tag, scope: "rooms:read",
    query: holdListQuery, list: true, response: listSchema(holdSchema, "InventoryHoldList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listHolds({ ...ctx, filters: query, page: list.page }), presentHold),
  }),
  // POST /v1/inventory/holds: hold rooms back from sale (emits inventory.updated)
  defineOperation({
    method: "post", path: "/inventory/holds", operationId: "createHold", summary: "Hold rooms back from sale", tag, scope: "rooms:write",
    body: holdCreateSchema, response: holdSchema, status: 201,
    errors: ["no_availability"],
    handler: async ({ ctx, body }) => presentHold(await createHold({ ...ctx, input: body })),
  }),
  // DELETE /v1/inventory/holds/{id}: release a hold (emits inventory.updated)
  defineOperation({
    method: "delete", path: "/inventory/holds/{id}", operationId: "releaseHold", summary: "Release a hold", tag, scope: "rooms:write",
    params: idParam("hold"), response: deleted("inventory_hold"),
    handler: async ({ ctx, params }) => {
      const hold = await releaseHold({ ...ctx, id: params.id });
      return { id: hold.id, object: "inventory_hold", deleted: true };
    },
  }),
  // GET /v1/availability: rooms free and priced quotes for a stay
  defineOperation({
    method: "get", path: "/availability", operationId: "getAvailability", summary: "Check availability and quotes for a stay", tag, scope: "rooms:read",
    query: availabilityQuery, response: availabilitySchema,
    handler: async ({ ctx, query }) => getAvailability({ ...ctx, query }),
  }),
];
