import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { presentRoom } from "@/server/rooms/present";
import { roomSchema } from "@/server/rooms/schemas";
import { deleted, idParam } from "@/server/schemas";
import { createAssignment, deleteAssignment, listAssignments, presentAssignment, updateAssignment } from "./assignments";
import { changeRoomStatus } from "./room-status";
import { assignmentCreateSchema, assignmentListQuery, assignmentSchema, assignmentUpdateSchema, statusChangeSchema } from "./schemas";

const tag = "Housekeeping";
const params = idParam("hka");

export const housekeepingOperations = [
  // POST /v1/rooms/{id}/housekeeping: change a room's housekeeping status
  defineOperation({
    method: "post",
    path: "/rooms/{id}/housekeeping",
    operationId: "changeRoomStatus",
    summary: "Change a room's housekeeping status",
    tag,
    scope: "rooms:write",
    params: idParam("room"),
    body: statusChangeSchema,
    response: roomSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params, body }) => presentRoom(await changeRoomStatus({ ...ctx, roomId: params.id, input: body })),
  }),
  // GET /v1/housekeeping/assignments: who cleans which room when (v1.6)
  defineOperation({
    method: "get",
    path: "/housekeeping/assignments",
    operationId: "listAssignments",
    summary: "List housekeeping assignments",
    tag,
    scope: "rooms:read",
    query: assignmentListQuery,
    list: true,
    response: listSchema(assignmentSchema, "HousekeepingAssignmentList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listAssignments({ ...ctx, filters: query, page: list.page }), presentAssignment),
  }),
  // POST /v1/housekeeping/assignments: assign a room to a housekeeper for a day
  defineOperation({
    method: "post",
    path: "/housekeeping/assignments",
    operationId: "createAssignment",
    summary: "Create a housekeeping assignment",
    tag,
    scope: "rooms:write",
    body: assignmentCreateSchema,
    response: assignmentSchema,
    status: 201,
    handler: async ({ ctx, body }) => presentAssignment(await createAssignment({ ...ctx, input: body })),
  }),
  // PATCH /v1/housekeeping/assignments/{id}: reassign, reschedule or move its status forward
  defineOperation({
    method: "patch",
    path: "/housekeeping/assignments/{id}",
    operationId: "updateAssignment",
    summary: "Update a housekeeping assignment",
    tag,
    scope: "rooms:write",
    params,
    body: assignmentUpdateSchema,
    response: assignmentSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params, body }) => presentAssignment(await updateAssignment({ ...ctx, id: params.id, input: body })),
  }),
  // DELETE /v1/housekeeping/assignments/{id}: delete an assignment
  defineOperation({
    method: "delete",
    path: "/housekeeping/assignments/{id}",
    operationId: "deleteAssignment",
    summary: "Delete a housekeeping assignment",
    tag,
    scope: "rooms:write",
    params,
    response: deleted("housekeeping_assignment"),
    handler: async ({ ctx, params }) => {
      const a = await deleteAssignment({ ...ctx, id: params.id });
      return { id: a.id, object: "housekeeping_assignment", deleted: true };
    },
  }),
];
