"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, PageHeader } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { usePropertyFormat } from "@/components/ui/property-format";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { nightsLabel, statusLabels } from "@/components/reservations/format";
import { StayPriceBreakdown } from "@/components/reservations/stay-price";

/** /groups/{id}: the rooms of one booking, each checked in or cancelled on its own. */
export function GroupView({ id }: { id: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const desk = useQuery(trpc.groups.desk.queryOptions({ id }));
  const [cancelling, setCancelling] = useState<{ id: string; label: string } | "all" | null>(null);
  const refresh = () => queryClient.invalidateQueries(trpc.groups.desk.queryFilter());
  const checkIn = useMutation(trpc.reservations.checkIn.mutationOptions({ onSuccess: async () => (toast.success("Checked in"), await refresh()) }));
  const cancelRoom = useMutation(trpc.reservations.cancel.mutationOptions({ onSuccess: async () => (toast.success("Room cancelled"), setCancelling(null), await refresh()) }));
  const cancelAll = useMutation(trpc.groups.cancel.mutationOptions({ onSuccess: async () => (toast.success("Group cancelled"), setCancelling(null), await refresh()) }));

  if (desk.error) return <ErrorState message={callError(desk.error).message} onRetry={() => desk.refetch()} />;
  if (!desk.data) return <LoadingState rows={5} label="Loading the group…" />;
  const { group: g, rooms, master_balance, price } = desk.data;
  const nights = Math.round((Date.parse(g.check_out) - Date.parse(g.check_in)) / 86_400_000);
  return (
    <>
      <Link href="/reservations" className="text-sm text-stone-500 hover:text-stone-800">
        ← Reservations
      </Link>
      <div className="mt-3">
        <PageHeader
          title={g.name}
          description={`${fmt.day(g.check_in, "long")} → ${fmt.day(g.check_out, "long")} · ${nightsLabel(nights)} · ${rooms.length} rooms`}
          actions={
            rooms.some((r) => r.can_cancel) ? (
              <Button variant="danger" onClick={() => (cancelAll.reset(), setCancelling("all"))}>
                Cancel the group
              </Button>
            ) : null
          }
        />
      </div>
      <div className="mb-6 grid gap-4 sm:grid-cols-3">
        <Card title="Price">
          <p className="text-lg font-semibold tabular-nums" data-testid="group-price">
            {fmt.money(price.gross)}
          </p>
          <StayPriceBreakdown price={price} />
        </Card>
        <Card title="Billing">
          <p className="text-sm text-stone-700">{g.billing === "master" ? "One master folio for every room" : "One folio per room"}</p>
        </Card>
        {master_balance ? (
          <Card title="Master folio balance">
            <p className="text-lg font-semibold tabular-nums" data-testid="master-balance">
              {fmt.money(master_balance)}
            </p>
          </Card>
        ) : null}
      </div>
      <Card title="Rooms">
        <ul className="divide-y divide-stone-100" aria-label="Rooms of the group">
          {rooms.map((room, i) => {
            const r = room.reservation;
            const status = statusLabels[r.status];
            const label = `Room ${i + 1}, ${room.room_type}`;
            return (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="group-room">
                <div className="min-w-0">
                  <p className="font-medium text-stone-800">
                    <Link href={`/reservations/${r.id}`} className="underline decoration-stone-300 hover:decoration-stone-800">
                      {label}
                    </Link>{" "}
                    <Badge tone={status?.tone}>{status?.label}</Badge>
                  </p>
                  <p className="text-sm text-stone-600">
                    <span data-testid="room-guest">{r.guest.first_name} {r.guest.last_name}</span> · <span data-testid="room-price">{fmt.money(r.price.gross)}</span>
                    {room.room_number ? ` · room ${room.room_number}` : ""}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  {room.can_check_in ? (
                    <Button disabled={checkIn.isPending} onClick={() => checkIn.mutate({ id: r.id })} aria-label={`Check in ${label}`}>
                      Check in
                    </Button>
                  ) : null}
                  {room.can_cancel ? (
                    <Button variant="secondary" onClick={() => (cancelRoom.reset(), setCancelling({ id: r.id, label }))} aria-label={`Cancel ${label}`}>
                      Cancel room
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
        {checkIn.error ? <p className="mt-2 text-sm text-red-700" role="alert">{callError(checkIn.error).message}</p> : null}
      </Card>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(o) => (o ? null : setCancelling(null))}
        title={cancelling === "all" ? "Cancel every room still booked?" : `Cancel ${cancelling?.label ?? "the room"}?`}
        description={
          cancelling === "all"
            ? "Each confirmed room is cancelled under its rate plan's policy and its nights go back on sale. Guests in house stay."
            : "Only this room's nights go back on sale; its charges leave the folio where the rate plan allows."
        }
        confirmLabel={cancelling === "all" ? "Cancel the group" : "Cancel room"}
        danger
        pending={cancelRoom.isPending || cancelAll.isPending}
        error={cancelRoom.error ? callError(cancelRoom.error).message : cancelAll.error ? callError(cancelAll.error).message : null}
        onConfirm={() => (cancelling === "all" ? cancelAll.mutate({ id: g.id }) : cancelling && cancelRoom.mutate({ id: cancelling.id }))}
      />
    </>
  );
}
