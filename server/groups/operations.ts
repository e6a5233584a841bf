import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { cancelGroup, createGroup, getGroup, listGroups } from "./groups";
import { presentGroup } from "./present";
import { groupCancelSchema, groupCreateSchema, groupListQuery, groupSchema } from "./schemas";

const tag = "Groups";
const params = idParam("grp");

export const groupOperations = [
  // GET /v1/groups: groups (several rooms in one booking), newest first
  defineOperation({
    method: "get", path: "/groups", operationId: "listGroups", summary: "List groups", tag, scope: "reservations:read",
    query: groupListQuery, list: true, response: listSchema(groupSchema, "GroupList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listGroups({ ...ctx, filters: query, page: list.page }), presentGroup),
  }),
  // POST /v1/groups: book several rooms at once, all or none
  defineOperation({
    method: "post", path: "/groups", operationId: "createGroup", summary: "Create a group booking", tag, scope: "reservations:write",
    body: groupCreateSchema, response: groupSchema, status: 201,
    description:
      "Requires scope `reservations:write`. Books 2 to 20 rooms for the same dates in one transaction: each room is checked and priced as `POST /v1/reservations` would (errors about one room name it, e.g. param `rooms[1].room_type_id`), and if any room cannot be sold (409 `no_availability`, `restriction_violated`) none is. Each room is a reservation of its own with `group_id` set (check in, cancel, upgrade room by room). With `billing: master` every room's `folio_id` is the group's master folio. Emits each room's `reservation.created` and `inventory.updated` (and `guest.created`), then `group.created`.",
    errors: ["restriction_violated", "no_availability"],
    handler: async ({ ctx, body }) => presentGroup(await createGroup({ ...ctx, input: body })),
  }),
  // GET /v1/groups/{id}: retrieve a group with its rooms
  defineOperation({
    method: "get", path: "/groups/{id}", operationId: "getGroup", summary: "Retrieve a group", tag, scope: "reservations:read",
    params, response: groupSchema,
    handler: async ({ ctx, params }) => presentGroup(await getGroup({ ...ctx, id: params.id })),
  }),
  // POST /v1/groups/{id}/cancel: cancel every room still confirmed
  defineOperation({
    method: "post", path: "/groups/{id}/cancel", operationId: "cancelGroup", summary: "Cancel a group", tag, scope: "reservations:write",
    params, body: groupCancelSchema, response: groupSchema,
    errors: ["invalid_state_transition"],
    description:
      "Requires scope `reservations:write`. Cancels every room still confirmed, each as `POST /v1/reservations/{id}/cancel` does, all in one transaction; rooms in house or gone stay as they are (409 `invalid_state_transition` when no room is confirmed). To cancel one room, cancel its reservation. Emits each room's `reservation.cancelled` and `inventory.updated`, then `group.cancelled`.",
    handler: async ({ ctx, params, body }) => presentGroup(await cancelGroup({ ...ctx, id: params.id, reason: body.reason })),
  }),
];
