import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { getProperty, listProperties } from "./properties";
import { presentProperty } from "./present";
import { propertySchema } from "./schemas";

const tag = "Properties";

export const propertyOperations = [
  // GET /v1/properties: the properties of the account in this environment
  defineOperation({
    method: "get", path: "/properties", operationId: "listProperties", summary: "List properties", tag, scope: "rooms:read",
    list: true, response: listSchema(propertySchema, "PropertyList"),
    handler: async ({ ctx, list }) => list.envelope(await listProperties({ ...ctx, page: list.page }), presentProperty),
  }),
  // GET /v1/properties/{id}: retrieve a property
  defineOperation({
    method: "get", path: "/properties/{id}", operationId: "getProperty", summary: "Retrieve a property", tag, scope: "rooms:read",
    params: idParam("prop"), response: propertySchema,
    handler: async ({ ctx, params }) => presentProperty(await getProperty({ ...ctx, id: params.id })),
  }),
];
