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
