import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { createGuest, getGuest, listGuests, updateGuest } from "./guests";
import { getPreferences, mergePreferences, replacePreferences } from "./preferences";
import { presentGuest, presentPreferences } from "./present";
import {
  guestCreateSchema,
  guestListQuery,
  guestSchema,
  guestUpdateSchema,
  preferencesMergeSchema,
  preferencesReplaceSchema,
  preferencesSchema,
} from "./schemas";

const tag = "Guests";
const params = idParam("gst");

export const guestOperations = [
  // GET /v1/guests: list guests, newest first
  defineOperation({
    method: "get", path: "/guests", operationId: "listGuests", summary: "List guests", tag, scope: "reservations:read",
    query: guestListQuery, list: true, response: listSchema(guestSchema, "GuestList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listGuests({ ...ctx, filters: query, page: list.page }), presentGuest),
  }),
  // POST /v1/guests: create a guest; e-mails are unique within an account and environment
  defineOperation({
    method: "post", path: "/guests", operationId: "createGuest", summary: "Create a guest", tag, scope: "reservations:write",
    body: guestCreateSchema, response: guestSchema, status: 201,
    handler: async ({ ctx, body }) => presentGuest(await createGuest({ ...ctx, input: body })),
  }),
  // GET /v1/guests/{id}: retrieve a guest
  defineOperation({
    method: "get", path: "/guests/{id}", operationId: "getGuest", summary: "Retrieve a guest", tag, scope: "reservations:read",
    params, response: guestSchema,
    handler: async ({ ctx, params }) => presentGuest(await getGuest({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/guests/{id}: update a guest's names, e-mail or phone
  defineOperation({
    method: "patch", path: "/guests/{id}", operationId: "updateGuest", summary: "Update a guest", tag, scope: "reservations:write",
    params, body: guestUpdateSchema, response: guestSchema,
    handler: async ({ ctx, params, body }) => presentGuest(await updateGuest({ ...ctx, id: params.id, input: body })),
  }),
];

/** A guest's preferences, listed after the guest data operations (server/guest-data/operations.ts) in the document. */
export const guestPreferenceOperations = [
  // GET /v1/guests/{id}/preferences: allergies, room preferences and loyalty data (v1.8)
  defineOperation({
    method: "get", path: "/guests/{id}/preferences", operationId: "getGuestPreferences", summary: "Retrieve a guest's preferences", tag,
    scope: "reservations:read", params, response: preferencesSchema,
    handler: async ({ ctx, params }) => {
      const { guest, prefs } = await getPreferences({ ...ctx, guestId: params.id });
      return presentPreferences(guest, prefs);
    },
  }),
  // PUT /v1/guests/{id}/preferences: replace the preferences whole
  defineOperation({
    method: "put", path: "/guests/{id}/preferences", operationId: "replaceGuestPreferences", summary: "Replace a guest's preferences", tag,
    scope: "reservations:write", params, body: preferencesReplaceSchema, response: preferencesSchema,
    handler: async ({ ctx, params, body }) => {
      const { guest, prefs } = await replacePreferences({ ...ctx, guestId: params.id, input: body });
      return presentPreferences(guest, prefs);
    },
  }),
  // PATCH /v1/guests/{id}/preferences: merge into the preferences (null removes a key)
  defineOperation({
    method: "patch", path: "/guests/{id}/preferences", operationId: "mergeGuestPreferences", summary: "Update a guest's preferences", tag,
    scope: "reservations:write", params, body: preferencesMergeSchema, response: preferencesSchema,
    handler: async ({ ctx, params, body }) => {
      const { guest, prefs } = await mergePreferences({ ...ctx, guestId: params.id, input: body });
      return presentPreferences(guest, prefs);
    },
  }),
];
