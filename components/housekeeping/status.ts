import type { inferRouterOutputs } from "@trpc/server";
import type { BadgeTone } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { assignmentWords, housekeepingWords } from "@/lib/words";

type Outputs = inferRouterOutputs<AppRouter>;
export type Board = Outputs["housekeeping"]["board"];
export type BoardRoom = Board["rooms"][number];
export type Assignment = Outputs["housekeeping"]["assignments"]["list"]["data"][number];
export type RoomStatus = BoardRoom["housekeeping_status"];
export type AssignmentStatus = Assignment["status"];

/** The board's columns, in the order a room moves through them. */
export const roomStatuses: RoomStatus[] = ["dirty", "clean", "inspected", "out-of-order"];

export const statusLabel = housekeepingWords as Record<RoomStatus, string>;
export const statusTone: Record<RoomStatus, BadgeTone> = { dirty: "amber", clean: "blue", inspected: "teal", "out-of-order": "red" };

/** The button that moves a room to `status`. */
export const moveLabel: Record<RoomStatus, string> = {
  dirty: "Mark dirty",
  clean: "Mark clean",
  inspected: "Mark inspected",
  "out-of-order": "Out of order…",
};

export const assignmentLabel = assignmentWords as Record<AssignmentStatus, string>;
export const assignmentTone: Record<AssignmentStatus, BadgeTone> = { pending: "neutral", in_progress: "violet", done: "teal" };
/** The forward moves of an assignment (server/housekeeping/assignments.ts decides; these are the buttons). */
export const assignmentNext: Record<AssignmentStatus, { status: AssignmentStatus; label: string }[]> = {
  pending: [
    { status: "in_progress", label: "Start" },
    { status: "done", label: "Done" },
  ],
  in_progress: [{ status: "done", label: "Done" }],
  done: [],
};

/**
 * Assignments in the walking order of their rooms: the board's order, by floor and number (as the
 * server lists the rooms), so the board and a housekeeper's phone list the same rooms alike.
 * Assignments of rooms no longer on the board are left out.
 */
export function walkingOrder<A extends { room_id: string }>(rooms: { id: string }[], assignments: A[]): A[] {
  const place = new Map(rooms.map((r, i) => [r.id, i]));
  return assignments.filter((a) => place.has(a.room_id)).sort((a, b) => place.get(a.room_id)! - place.get(b.room_id)!);
}
