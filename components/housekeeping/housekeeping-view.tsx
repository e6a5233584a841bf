"use client";

import { useQuery } from "@tanstack/react-query";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { usePropertyFormat } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { PageHeader } from "@/components/ui";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import { AssignmentsPanel } from "./assignments-panel";
import { RoomBoard } from "./room-board";

type Props = {
  propertyId: string;
  canWrite: boolean;
  canAssign: boolean;
  /** The signed-in housekeeper's e-mail (their assignments come first), or null for other roles. */
  housekeeper: string | null;
};

/** The housekeeping board and the day's assignments of the property on screen. */
export function HousekeepingView({ propertyId, canWrite, canAssign, housekeeper }: Props) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const board = useQuery(trpc.housekeeping.board.queryOptions({ property_id: propertyId }));
  // Rooms changed elsewhere (another browser, the API, a check-in or check-out) show within a second or two.
  useLiveInvalidate(
    ["housekeeping.status_changed", "reservation.*", "inventory.updated", "night_audit.completed"],
    trpc.housekeeping.board.queryFilter(),
    trpc.housekeeping.room.queryFilter(),
    trpc.properties.businessDate.queryFilter(),
  );
  const data = board.data;
  const rooms = { value: "rooms", label: "Rooms", content: data ? <RoomBoard board={data} canWrite={canWrite} /> : null };
  const assignments = {
    value: "assignments",
    label: housekeeper ? "My assignments" : "Assignments",
    content: data ? <AssignmentsPanel board={data} canWrite={canWrite} canAssign={canAssign} housekeeper={housekeeper} /> : null,
  };
  return (
    <>
      <PageHeader
        title="Housekeeping"
        description={
          data
            ? `${data.property.name} · today ${fmt.day(data.today, { weekday: "long", day: "numeric", month: "long" })}`
            : "Rooms by status and who cleans them."
        }
      />
      {board.error && !data ? (
        <ErrorState message={callError(board.error).message} onRetry={() => board.refetch()} />
      ) : !data ? (
        <LoadingState rows={6} label="Loading the board…" />
      ) : (
        <Tabs label="Housekeeping" tabs={housekeeper ? [assignments, rooms] : [rooms, assignments]} />
      )}
    </>
  );
}
