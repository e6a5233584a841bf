"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Input, PageHeader, Textarea } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import { plural } from "@/lib/words";

export type SetupProperty = { id: string; name: string; currency: string; timezone: string };
type RoomType = { id: string; code: string; name: string; description: string | null; beds: string | null; max_occupancy: number; room_count: number };

const roomTypeForm = z.object({
  name: z.string().trim().min(1, "Enter a name, such as Double room.").max(100, "At most 100 characters."),
  code: z
    .string()
    .trim()
    .min(1, "Enter a short code, such as DBL.")
    .max(20, "At most 20 characters.")
    .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, - and _ only."),
  max_occupancy: z.coerce.number({ message: "Enter how many guests fit." }).int("A whole number.").min(1, "At least 1 guest.").max(20, "At most 20 guests."),
  beds: z.string().trim().max(100, "At most 100 characters."),
  description: z.string().trim().max(2000, "At most 2,000 characters."),
});
type RoomTypeForm = z.input<typeof roomTypeForm>;

const guests = (n: number) => `Up to ${plural(n, "guest")}`;

/** The property's room types: what each sleeps and how many rooms it has; add or change one. */
export function RoomTypesView({ property }: { property: SetupProperty }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.setup.roomTypes.list.queryOptions({ property_id: property.id }));
  const [editing, setEditing] = useState<RoomType | "new" | null>(null);
  const columns: ColumnDef<RoomType>[] = [
    { id: "name", header: "Room type", meta: { primary: true }, cell: ({ row }) => <span className="font-medium text-stone-900">{row.original.name}</span> },
    { id: "code", header: "Code", cell: ({ row }) => row.original.code },
    { id: "capacity", header: "Sleeps", cell: ({ row }) => guests(row.original.max_occupancy) },
    { id: "beds", header: "Beds", cell: ({ row }) => row.original.beds ?? "—" },
    { id: "rooms", header: "Rooms", meta: { numeric: true }, cell: ({ row }) => row.original.room_count },
    {
      id: "actions",
      header: "",
      meta: { hideOnMobile: false },
      cell: ({ row }) => (
        <Button variant="secondary" onClick={() => setEditing(row.original)} aria-label={`Edit ${row.original.name}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Room types"
        description={`The kinds of room ${property.name} sells. Rooms and rates belong to a type.`}
        actions={<Button onClick={() => setEditing("new")}>Add room type</Button>}
      />
      <DataTable
        label="Room types"
        columns={columns}
        data={types.data}
        error={types.error ? callError(types.error).message : null}
        onRetry={() => types.refetch()}
        rowKey={(t) => t.id}
        rowProps={(t) => ({ "data-testid": `room-type-${t.code}` })}
        empty={{
          title: "No room types yet",
          children: "Add the kinds of room the property sells, such as a double or a suite; then add the rooms of each.",
          action: <Button onClick={() => setEditing("new")}>Add room type</Button>,
        }}
      />
      {types.data?.length ? (
        <p className="mt-4 text-sm text-stone-600">
          Next:{" "}
          <Link href="/settings/rooms" className="font-medium text-teal-800 underline">
            add rooms
          </Link>{" "}
          and{" "}
          <Link href="/settings/rate-plans" className="font-medium text-teal-800 underline">
            rate plans
          </Link>
          .
        </p>
      ) : null}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={editing === "new" ? "Add a room type" : "Edit room type"}>
        {editing ? <RoomTypeEditor key={editing === "new" ? "new" : editing.id} property={property} type={editing === "new" ? null : editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}

function RoomTypeEditor({ property, type, onDone }: { property: SetupProperty; type: RoomType | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(roomTypeForm, {
    defaultValues: { name: type?.name ?? "", code: type?.code ?? "", max_occupancy: type?.max_occupancy ?? 2, beds: type?.beds ?? "", description: type?.description ?? "" },
  });
  const saved = async (t: RoomType) => {
    await queryClient.invalidateQueries(trpc.setup.roomTypes.list.queryFilter());
    toast.success(`${t.name} ${type ? "saved" : "added"}.`);
    onDone();
  };
  const onError = (e: unknown) => showServerError(form, e);
  const create = useMutation(trpc.setup.roomTypes.create.mutationOptions({ onSuccess: saved, onError }));
  const update = useMutation(trpc.setup.roomTypes.update.mutationOptions({ onSuccess: saved, onError }));
  const pending = create.isPending || update.isPending;
  return (
    <Form
      form={form}
      aria-label="Room type"
      onSubmit={(v) => {
        const input = { name: v.name, code: v.code, max_occupancy: v.max_occupancy, beds: v.beds || null, description: v.description || null };
        if (type) update.mutate({ id: type.id, ...input });
        else create.mutate({ property_id: property.id, ...input });
      }}
    >
      <div className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <FormField<RoomTypeForm> name="name" label="Name">
            {(control) => <Input {...control} placeholder="Double room" />}
          </FormField>
          <FormField<RoomTypeForm> name="code" label="Code" hint="Short, for the rates grid and channels.">
            {(control) => <Input {...control} placeholder="DBL" className="uppercase" />}
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField<RoomTypeForm> name="max_occupancy" label="Sleeps (guests)">
            {(control) => <Input {...control} type="number" inputMode="numeric" min={1} max={20} />}
          </FormField>
          <FormField<RoomTypeForm> name="beds" label="Beds" hint="In words, such as 1 king or 2 singles.">
            {(control) => <Input {...control} placeholder="1 king" />}
          </FormField>
        </div>
        <FormField<RoomTypeForm> name="description" label="Description (optional)">
          {(control) => <Textarea {...control} rows={3} />}
        </FormField>
        <FormError />
        <DialogActions label={type ? "Save" : "Add room type"} pendingLabel="Saving…" pending={pending} />
      </div>
    </Form>
  );
}
