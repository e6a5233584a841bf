import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { emptyActionSchema, idParam } from "@/server/schemas";
import { presentRoom, presentRoomType } from "./present";
import { createRoomType, getRoomType, listRoomTypes, updateRoomType } from "./room-types";
import { createRoom, createRoomRange, getRoom, listRooms, retireRoom, updateRoom } from "./rooms";
import {
  roomCreateSchema,
  roomListQuery,
  roomRangeCreateSchema,
  roomRangeSchema,
  roomSchema,
  roomTypeCreateSchema,
  roomTypeListQuery,
  roomTypeSchema,
  roomTypeUpdateSchema,
  roomUpdateSchema,
} from "./schemas";

export const roomOperations = [
  // GET /v1/room_types: room types, optionally of one property
  defineOperation({
    method: "get",
    path: "/room_types",
    operationId: "listRoomTypes",
    summary: "List room types",
    tag: "Room types",
    scope: "rooms:read",
    query: roomTypeListQuery,
    list: true,
    response: listSchema(roomTypeSchema, "RoomTypeList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listRoomTypes({ ...ctx, filters: query, page: list.page }), presentRoomType),
  }),
  // POST /v1/room_types: create a room type
  defineOperation({
    method: "post",
    path: "/room_types",
    operationId: "createRoomType",
    summary: "Create a room type",
    tag: "Room types",
    scope: "rooms:write",
    body: roomTypeCreateSchema,
    response: roomTypeSchema,
    status: 201,
    handler: async ({ ctx, body }) => presentRoomType(await createRoomType({ ...ctx, input: body })),
  }),
  // GET /v1/room_types/{id}: retrieve a room type
  defineOperation({
    method: "get",
    path: "/room_types/{id}",
    operationId: "getRoomType",
    summary: "Retrieve a room type",
    tag: "Room types",
    scope: "rooms:read",
    params: idParam("rt"),
    response: roomTypeSchema,
    handler: async ({ ctx, params }) => presentRoomType(await getRoomType({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/room_types/{id}: update a room type's attributes
  defineOperation({
    method: "patch",
    path: "/room_types/{id}",
    operationId: "updateRoomType",
    summary: "Update a room type",
    tag: "Room types",
    scope: "rooms:write",
    params: idParam("rt"),
    body: roomTypeUpdateSchema,
    response: roomTypeSchema,
    handler: async ({ ctx, params, body }) => presentRoomType(await updateRoomType({ ...ctx, id: params.id, input: body })),
  }),
  // GET /v1/rooms: rooms, filtered by property, type or housekeeping status
  defineOperation({
    method: "get",
    path: "/rooms",
    operationId: "listRooms",
    summary: "List rooms",
    tag: "Rooms",
    scope: "rooms:read",
    query: roomListQuery,
    list: true,
    response: listSchema(roomSchema, "RoomList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listRooms({ ...ctx, filters: query, page: list.page }), presentRoom),
  }),
  // POST /v1/rooms: add a room (its type gains a room of inventory)
  defineOperation({
    method: "post",
    path: "/rooms",
    operationId: "createRoom",
    summary: "Create a room",
    tag: "Rooms",
    scope: "rooms:write",
    body: roomCreateSchema,
    response: roomSchema,
    status: 201,
    handler: async ({ ctx, body }) => presentRoom(await createRoom({ ...ctx, input: body })),
  }),
  // POST /v1/rooms/range: add the rooms of a number range (101–120) to a type, all or none
  defineOperation({
    method: "post",
    path: "/rooms/range",
    operationId: "createRoomRange",
    summary: "Create the rooms of a number range",
    tag: "Rooms",
    scope: "rooms:write",
    body: roomRangeCreateSchema,
    response: roomRangeSchema,
    status: 201,
    handler: async ({ ctx, body }) => {
      const { type, rooms } = await createRoomRange({ ...ctx, input: body });
      return { object: "room_range" as const, livemode: type.livemode, room_type_id: type.id, data: rooms.map(presentRoom) };
    },
  }),
  // GET /v1/rooms/{id}: retrieve a room
  defineOperation({
    method: "get",
    path: "/rooms/{id}",
    operationId: "getRoom",
    summary: "Retrieve a room",
    tag: "Rooms",
    scope: "rooms:read",
    params: idParam("room"),
    response: roomSchema,
    handler: async ({ ctx, params }) => presentRoom(await getRoom({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/rooms/{id}: renumber a room or move it to another type
  defineOperation({
    method: "patch",
    path: "/rooms/{id}",
    operationId: "updateRoom",
    summary: "Update a room",
    tag: "Rooms",
    scope: "rooms:write",
    params: idParam("room"),
    body: roomUpdateSchema,
    response: roomSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params, body }) => presentRoom(await updateRoom({ ...ctx, id: params.id, input: body })),
  }),
  // POST /v1/rooms/{id}/retire: take a room out of the hotel for good (its history stays)
  defineOperation({
    method: "post",
    path: "/rooms/{id}/retire",
    operationId: "retireRoom",
    summary: "Retire a room",
    tag: "Rooms",
    scope: "rooms:write",
    errors: ["invalid_state_transition", "no_availability"],
    params: idParam("room"),
    body: emptyActionSchema,
    response: roomSchema,
    handler: async ({ ctx, params }) => presentRoom(await retireRoom({ ...ctx, id: params.id })),
  }),
];
