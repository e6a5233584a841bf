import { defineOperation } from "@/server/http/operation";
import { idParam } from "@/server/schemas";
import { bookingEngineSchema, bookingEngineUpdateSchema } from "./schemas";
import { getBookingEngine, updateBookingEngine } from "./settings";

const tag = "Booking engine";
const params = idParam("prop");

export const bookingEngineOperations = [
  // GET /v1/properties/{id}/booking_engine: the property's booking engine settings
  defineOperation({
    method: "get", path: "/properties/{id}/booking_engine", operationId: "getBookingEngine", summary: "Retrieve a property's booking engine", tag, scope: "rooms:read",
    params, response: bookingEngineSchema,
    description: "Requires scope `rooms:read`. Whether guests can book the property on its public page `/book/<slug>`, at which address, and the rate plans sold there. A property never set up answers `enabled: false` and no slug.",
    handler: async ({ ctx, params }) => getBookingEngine({ ...ctx, propertyId: params.id }),
  }),
  // PATCH /v1/properties/{id}/booking_engine: switch the engine on or off, set its address and the plans it sells
  defineOperation({
    method: "patch", path: "/properties/{id}/booking_engine", operationId: "updateBookingEngine", summary: "Update a property's booking engine", tag, scope: "rooms:write",
    params, body: bookingEngineUpdateSchema, response: bookingEngineSchema,
    description:
      "Requires scope `rooms:write`. Changes only the fields sent. The slug is unique across every hotel (422 `parameter_invalid` on `slug` when taken); switching on needs a slug and at least one rate plan (422 `parameter_missing`). Bookings made on the engine carry `source: booking_engine` and `channel: null`.",
    handler: async ({ ctx, params, body }) => updateBookingEngine({ ...ctx, propertyId: params.id, input: body }),
  }),
];
