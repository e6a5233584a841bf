import { z } from "@hono/zod-openapi";
import { assignmentStatuses, housekeepingStatuses } from "@/db/schema";
import { date, idOf, timestamp } from "@/server/schemas";

export const statusChangeSchema = z
  .strictObject({
    status: z.enum(housekeepingStatuses),
    reason: z.string().trim().min(1).max(500).optional().openapi({ description: "Required for out-of-order." }),
    until: date.optional().openapi({ description: "Out-of-order only: the first night the room is back in service (exclusive end)." }),
  })
  .openapi("HousekeepingStatusChange");

export const assignmentSchema = z
  .object({
    id: idOf("hka"),
    object: z.literal("housekeeping_assignment"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    room_id: idOf("room"),
    date,
    assignee: z.string(),
    notes: z.string().nullable(),
    status: z.enum(assignmentStatuses),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("HousekeepingAssignment");

export const assignmentCreateSchema = z
  .strictObject({
    property_id: z.string().min(1),
    date,
    room_id: z.string().min(1),
    assignee: z.string().trim().min(1).max(100),
    notes: z.string().max(1000).nullish(),
  })
  .openapi("HousekeepingAssignmentCreate");

export const assignmentUpdateSchema = z
  .strictObject({
    date: date.optional(),
    assignee: z.string().trim().min(1).max(100).optional(),
    notes: z.string().max(1000).nullish(),
    status: z.enum(assignmentStatuses).optional(),
  })
  .openapi("HousekeepingAssignmentUpdate");

export const assignmentListQuery = z.strictObject({
  property_id: z.string().optional(),
  date: date.optional(),
  assignee: z.string().optional(),
  status: z.enum(assignmentStatuses).optional(),
});

export type StatusChange = z.output<typeof statusChangeSchema>;
export type AssignmentCreate = z.output<typeof assignmentCreateSchema>;
export type AssignmentUpdate = z.output<typeof assignmentUpdateSchema>;
