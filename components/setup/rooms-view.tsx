"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { housekeepingLabels } from "@/components/reservations/format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Input, PageHeader, Select } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ConfirmDialog, Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import type { SetupProperty } from "./room-types-view";
import { NeedsRoomTypes } from "./needs-property";

type Room = { id: string; number: string; floor: number | null; room_type_id: string; housekeeping_status: string; occupied: boolean; retired_at: string | null };
type RoomType = { id: string; name: string; code: string };

const digits = /^\d{1,9}$/;
const floorField = z
  .string()
  .trim()
  .regex(/^(-?\d{1,3})?$/, "A whole number, such as 1 (or empty).");
const toFloor = (text: string) => (text.trim() === "" ? null : Number(text));

/** One room, or a range of numbers: the last number is optional. */
const addRoomsForm = z
  .object({
    room_type_id: z.string().min(1, "Choose the room type."),
    from_number: z.string().trim().regex(digits, "Digits only, such as 101."),
    to_number: z
      .string()
      .trim()
      .regex(/^(\d{1,9})?$/, "Digits only, such as 120 (or empty for one room)."),
    floor: floorField,
  })
  .refine((v) => !v.to_number || Number(v.to_number) >= Number(v.from_number), { path: ["to_number"], message: "The last number must not be below the first." })
  .refine((v) => !v.to_number || Number(v.to_number) - Number(v.from_number) < 500, { path: ["to_number"], message: "At most 500 rooms at once." });
type AddRoomsForm = z.input<typeof addRoomsForm>;

const editRoomForm = z.object({
  number: z.string().trim().min(1, "Enter the room's number.").max(20, "At most 20 characters."),
  floor: floorField,
  room_type_id: z.string().min(1, "Choose the room type."),
});
type EditRoomForm = z.input<typeof editRoomForm>;

/** The floor a room number suggests: 101 → 1, 1204 → 12 (hotels number rooms so). */
const floorOf = (number: string) => (digits.test(number) && number.length >= 3 ? String(Number(number.slice(0, -2))) : "");

/** The property's rooms: add one or a range, change one, retire one; retired rooms keep their history. */
export function RoomsView({ property }: { property: SetupProperty }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.setup.roomTypes.list.queryOptions({ property_id: property.id }));
  const [adding, setAdding] = useState(false);
  const header = (
    <PageHeader
      title="Rooms"
      description={`The rooms of ${property.name}, each of one room type. Retired rooms leave the inventory but keep their history.`}
      actions={types.data?.length ? <Button onClick={() => setAdding(true)}>Add rooms</Button> : null}
    />
  );
  if (!types.data) {
    return (
      <>
        {header}
        {types.error ? null : <LoadingState rows={6} label="Loading rooms…" />}
        {types.error ? <EmptyState title="The room types could not be loaded">{callError(types.error).message}</EmptyState> : null}
      </>
    );
  }
  if (!types.data.length) {
    return (
      <>
        {header}
        <NeedsRoomTypes>Every room is of a room type: add the types first.</NeedsRoomTypes>
      </>
    );
  }
  return (
    <>
      {header}
      <Tabs
        label="Rooms in service or retired"
        tabs={[
          { value: "in-service", label: "In service", content: <RoomList property={property} types={types.data} retired={false} onAdd={() => setAdding(true)} /> },
          { value: "retired", label: "Retired", content: <RoomList property={property} types={types.data} retired onAdd={() => setAdding(true)} /> },
        ]}
      />
      <Dialog open={adding} onOpenChange={setAdding} title="Add rooms" description="One room, or a range of numbers such as 101 to 120, all of one type.">
        {adding ? <AddRooms types={types.data} onDone={() => setAdding(false)} /> : null}
      </Dialog>
    </>
  );
}

function RoomList({ property, types, retired, onAdd }: { property: SetupProperty; types: RoomType[]; retired: boolean; onAdd: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rooms = useQuery(trpc.setup.rooms.list.queryOptions({ property_id: property.id, retired }));
  const [editing, setEditing] = useState<Room | null>(null);
  const [retiring, setRetiring] = useState<Room | null>(null);
  // When it was retired, by the property's clock.
  const retiredOn = (iso: string) => new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: property.timezone });
  const typeName = (id: string) => types.find((t) => t.id === id)?.name ?? "Another type";
  const retire = useMutation(
    trpc.setup.rooms.retire.mutationOptions({
      onSuccess: async (room) => {
        await queryClient.invalidateQueries(trpc.setup.rooms.list.queryFilter());
        await queryClient.invalidateQueries(trpc.setup.roomTypes.list.queryFilter());
        toast.success(`Room ${room.number} retired.`);
        setRetiring(null);
      },
    }),
  );
  const columns: ColumnDef<Room>[] = [
    { id: "number", header: "Room", meta: { primary: true }, cell: ({ row }) => <span className="font-medium text-stone-900">Room {row.original.number}</span> },
    { id: "floor", header: "Floor", cell: ({ row }) => (row.original.floor === null ? "—" : row.original.floor) },
    { id: "type", header: "Room type", cell: ({ row }) => typeName(row.original.room_type_id) },
    retired
      ? { id: "retired", header: "Retired", cell: ({ row }) => (row.original.retired_at ? retiredOn(row.original.retired_at) : "—") }
      : {
          id: "status",
          header: "Status",
          cell: ({ row }) => (
            <span className="flex flex-wrap gap-1">
              <Badge>{housekeepingLabels[row.original.housekeeping_status] ?? "Unknown"}</Badge>
              {row.original.occupied ? <Badge tone="teal">Guest in room</Badge> : null}
            </span>
          ),
        },
  ];
  if (!retired) {
    columns.push({
      id: "actions",
      header: "",
      cell: ({ row }) => (
        <span className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => setEditing(row.original)} aria-label={`Edit room ${row.original.number}`}>
            Edit
          </Button>
          <Button variant="ghost" onClick={() => {
              retire.reset();
              setRetiring(row.original);
            }} aria-label={`Retire room ${row.original.number}`}>
            Retire
          </Button>
        </span>
      ),
    });
  }
  return (
    <>
      <DataTable
        label={retired ? "Retired rooms" : "Rooms in service"}
        columns={columns}
        data={rooms.data}
        error={rooms.error ? callError(rooms.error).message : null}
        onRetry={() => rooms.refetch()}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ "data-testid": `room-${r.number}` })}
        empty={
          retired
            ? { title: "No retired rooms", children: "A room taken out of the hotel for good is listed here, with its history." }
            : { title: "No rooms yet", children: "Add the rooms of each type: one at a time, or a range such as 101 to 120.", action: <Button onClick={onAdd}>Add rooms</Button> }
        }
      />
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={editing ? `Edit room ${editing.number}` : "Edit room"}>
        {editing ? <EditRoom key={editing.id} room={editing} types={types} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <ConfirmDialog
        open={retiring !== null}
        onOpenChange={(open) => !open && setRetiring(null)}
        title={retiring ? `Retire room ${retiring.number}?` : "Retire room?"}
        description="The room leaves the inventory from today and is no longer sold, assigned or cleaned. Its past stays and history are kept. This cannot be undone."
        confirmLabel="Retire room"
        danger
        pending={retire.isPending}
        error={retire.error ? callError(retire.error).message : null}
        onConfirm={() => retiring && retire.mutate({ id: retiring.id })}
      />
    </>
  );
}

function AddRooms({ types, onDone }: { types: RoomType[]; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(addRoomsForm, { defaultValues: { room_type_id: types.length === 1 ? types[0].id : "", from_number: "", to_number: "", floor: "" } });
  const add = useMutation(
    trpc.setup.rooms.createRange.mutationOptions({
      onSuccess: async (rooms) => {
        await queryClient.invalidateQueries(trpc.setup.rooms.list.queryFilter());
        await queryClient.invalidateQueries(trpc.setup.roomTypes.list.queryFilter());
        toast.success(rooms.length === 1 ? `Room ${rooms[0].number} added.` : `${rooms.length} rooms added: ${rooms[0].number} to ${rooms[rooms.length - 1].number}.`);
        onDone();
      },
      onError: (e) => showServerError(form, e),
    }),
  );
  return (
    <Form
      form={form}
      aria-label="Add rooms"
      onSubmit={(v) => add.mutate({ room_type_id: v.room_type_id, from_number: v.from_number, to_number: v.to_number || v.from_number, floor: toFloor(v.floor) })}
    >
      <div className="space-y-4">
        <FormField<AddRoomsForm> name="room_type_id" label="Room type">
          {(control) => (
            <Select {...control}>
              <option value="">Choose…</option>
              {types.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <div className="grid grid-cols-2 gap-4">
          <FormField<AddRoomsForm> name="from_number" label="First number" options={{ onChange: (e) => !form.getValues("floor") && form.setValue("floor", floorOf(e.target.value)) }}>
            {(control) => <Input {...control} inputMode="numeric" placeholder="101" />}
          </FormField>
          <FormField<AddRoomsForm> name="to_number" label="Last number" hint="Empty: one room.">
            {(control) => <Input {...control} inputMode="numeric" placeholder="120" />}
          </FormField>
        </div>
        <FormField<AddRoomsForm> name="floor" label="Floor" hint="Empty when the rooms have no floor.">
          {(control) => <Input {...control} inputMode="numeric" />}
        </FormField>
        <FormError />
        <DialogActions label="Add rooms" pendingLabel="Adding…" pending={add.isPending} />
      </div>
    </Form>
  );
}

function EditRoom({ room, types, onDone }: { room: Room; types: RoomType[]; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(editRoomForm, { defaultValues: { number: room.number, floor: room.floor === null ? "" : String(room.floor), room_type_id: room.room_type_id } });
  const update = useMutation(
    trpc.setup.rooms.update.mutationOptions({
      onSuccess: async (r) => {
        await queryClient.invalidateQueries(trpc.setup.rooms.list.queryFilter());
        await queryClient.invalidateQueries(trpc.setup.roomTypes.list.queryFilter());
        toast.success(`Room ${r.number} saved.`);
        onDone();
      },
      onError: (e) => showServerError(form, e),
    }),
  );
  return (
    <Form form={form} aria-label="Edit room" onSubmit={(v) => update.mutate({ id: room.id, number: v.number, floor: toFloor(v.floor), room_type_id: v.room_type_id })}>
      <div className="space-y-4">
        <div className="grid grid-cols-2 gap-4">
          <FormField<EditRoomForm> name="number" label="Number">
            {(control) => <Input {...control} />}
          </FormField>
          <FormField<EditRoomForm> name="floor" label="Floor">
            {(control) => <Input {...control} inputMode="numeric" />}
          </FormField>
        </div>
        <FormField<EditRoomForm> name="room_type_id" label="Room type" hint={room.occupied ? "A room with a guest in it keeps its type." : undefined}>
          {(control) => (
            <Select {...control}>
              {types.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormError />
        <DialogActions label="Save" pendingLabel="Saving…" pending={update.isPending} />
      </div>
    </Form>
  );
}
