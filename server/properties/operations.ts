import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { createProperty, getProperty, listProperties, updateProperty } from "./properties";
import { presentProperty } from "./present";
import { propertyCreateSchema, propertySchema, propertyUpdateSchema } from "./schemas";

const tag = "Properties";

export const propertyOperations = [
  // GET /v1/properties: the properties of the account in this environment
  defineOperation({
    method: "get", path: "/properties", operationId: "listProperties", summary: "List properties", tag, scope: "rooms:read",
    list: true, response: listSchema(propertySchema, "PropertyList"),
    handler: async ({ ctx, list }) => list.envelope(await listProperties({ ...ctx, page: list.page }), presentProperty),
  }),
  // POST /v1/properties: create a property (no rooms yet)
  defineOperation({
    method: "post", path: "/properties", operationId: "createProperty", summary: "Create a property", tag, scope: "rooms:write",
    body: propertyCreateSchema, response: propertySchema, status: 201,
    // An OAuth install is bound to the properties it was granted: it cannot add one (properties.ts).
    errors: ["property_not_granted"],
    handler: async ({ ctx, body }) => presentProperty(await createProperty({ ...ctx, input: body })),
  }),
  // GET /v1/properties/{id}: retrieve a property
  defineOperation({
    method: "get", path: "/properties/{id}", operationId: "getProperty", summary: "Retrieve a property", tag, scope: "rooms:read",
    params: idParam("prop"), response: propertySchema,
    handler: async ({ ctx, params }) => presentProperty(await getProperty({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/properties/{id}: update a property's name, address, time zone, currency, times, audit hour or walk-in rule
  defineOperation({
    method: "patch", path: "/properties/{id}", operationId: "updateProperty", summary: "Update a property", tag, scope: "rooms:write",
    params: idParam("prop"), body: propertyUpdateSchema, response: propertySchema,
    description: "Requires scope `rooms:write`. Changes only the fields sent. Emits `property.updated`.",
    handler: async ({ ctx, params, body }) => presentProperty(await updateProperty({ ...ctx, id: params.id, input: body })),
  }),
];
