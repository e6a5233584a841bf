"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MoreHorizontal } from "lucide-react";
import { useState } from "react";
import { z } from "zod";
import { DayText } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, FilterField, Input, Select, cx } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, FormField, useZodForm } from "@/components/ui/form";
import { Menu } from "@/components/ui/menu";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { DragAssign } from "./drag-assign";
import { RoomActions } from "./room-actions";
import { DoneButDirty, RoomMarks } from "./room-board";
import { walkingOrder, assignmentLabel, assignmentNext, assignmentTone, statusLabel, statusTone, type Assignment, type Board } from "./status";
import { plural } from "@/lib/words";

type Props = { board: Board; canWrite: boolean; canAssign: boolean; housekeeper: string | null };

/**
 * A day's assignments grouped by housekeeper. Managers select rooms and a housekeeper to
 * assign them; a housekeeper sees only their own list (the server filters it) and works it.
 */
export function AssignmentsPanel({ board, canWrite, canAssign, housekeeper }: Props) {
  const trpc = useTRPC();
  const [date, setDate] = useState(board.today);
  const list = useQuery(trpc.housekeeping.assignments.list.queryOptions({ property_id: board.property.id, date, limit: 100 }));
  const people = useQuery({ ...trpc.housekeeping.assignments.housekeepers.queryOptions(), enabled: canAssign });
  const groups = new Map<string, Assignment[]>();
  for (const a of list.data?.data ?? []) {
    const key = a.assignee.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  const nameOf = (assignee: string) => {
    const person = people.data?.find((p) => p.email === assignee.toLowerCase());
    return person?.name ? `${person.name} (${person.email})` : assignee;
  };
  const assigned = new Set((list.data?.data ?? []).map((a) => a.room_id));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-2">
        <FilterField label="Day" htmlFor="assignments-date">
          <Input id="assignments-date" type="date" value={date} onChange={(e) => e.target.value && setDate(e.target.value)} className="w-44" />
        </FilterField>
        <div className="flex gap-1 pb-0.5">
          <Button variant="ghost" onClick={() => setDate(board.today)} disabled={date === board.today}>
            Today
          </Button>
        </div>
        <p className="pb-2 text-sm text-stone-500">
          <DayText date={date} style={{ weekday: "long", day: "numeric", month: "long" }} />
        </p>
      </div>
      {canAssign ? <DragAssign board={board} date={date} rooms={board.rooms.filter((r) => !assigned.has(r.id))} people={people.data ?? []} /> : null}
      {canAssign ? (
        <AssignForm board={board} date={date} unassigned={board.rooms.filter((r) => !assigned.has(r.id))} people={people.data ?? []} />
      ) : null}
      {list.error && !list.data ? (
        <ErrorState message={callError(list.error).message} onRetry={() => list.refetch()} />
      ) : !list.data ? (
        <LoadingState rows={3} />
      ) : !groups.size ? (
        <EmptyState title={housekeeper ? "Nothing assigned to you on this day" : "No assignments on this day"}>
          {housekeeper
            ? `Rooms a manager assigns to ${housekeeper} appear here.`
            : canAssign
              ? "Select rooms and a housekeeper above to assign them."
              : "A manager assigns rooms to housekeepers here."}
        </EmptyState>
      ) : (
        [...groups.entries()].map(([key, items]) => (
          <Card
            key={key}
            title={housekeeper ? "My rooms" : nameOf(items[0].assignee)}
            actions={
              <span className="text-xs text-stone-500">
                {items.filter((a) => a.status === "done").length} of {items.length} done
              </span>
            }
          >
            <ul className="divide-y divide-stone-100" aria-label={`Assignments of ${items[0].assignee}`}>
              {walkingOrder(board.rooms, items).map((a) => (
                <AssignmentRow key={a.id} assignment={a} board={board} canWrite={canWrite} canAssign={canAssign} people={people.data ?? []} />
              ))}
            </ul>
          </Card>
        ))
      )}
    </div>
  );
}

type Person = { email: string; name: string | null };

function useAssignmentInvalidation() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.housekeeping.assignments.list.queryFilter()),
      queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
    ]);
}

/** One assignment: the room and its state, the assignment's next step, and (managers) reassign or remove. */
function AssignmentRow({
  assignment: a,
  board,
  canWrite,
  canAssign,
  people,
}: {
  assignment: Assignment;
  board: Board;
  canWrite: boolean;
  canAssign: boolean;
  people: Person[];
}) {
  const trpc = useTRPC();
  const refresh = useAssignmentInvalidation();
  const [removing, setRemoving] = useState(false);
  const update = useMutation(
    trpc.housekeeping.assignments.update.mutationOptions({ onSuccess: refresh, onError: (e) => toast.error(callError(e).message) }),
  );
  const remove = useMutation(
    trpc.housekeeping.assignments.delete.mutationOptions({
      onSuccess: async () => {
        setRemoving(false);
        toast.success("Assignment removed.");
        await refresh();
      },
    }),
  );
  const room = board.rooms.find((r) => r.id === a.room_id);
  const number = room?.number ?? a.room_id;
  const others = people.filter((p) => p.email !== a.assignee.toLowerCase());
  return (
    <li className="flex flex-col gap-2 py-2.5 sm:flex-row sm:items-start sm:justify-between" data-testid={`assignment-${number}`}>
      <div className="min-w-0 space-y-1">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-semibold text-stone-900">Room {number}</span>
          {room ? <Badge tone={statusTone[room.housekeeping_status]}>{statusLabel[room.housekeeping_status]}</Badge> : null}
          <Badge tone={assignmentTone[a.status]}>{assignmentLabel[a.status]}</Badge>
        </p>
        {room ? <RoomMarks room={room} /> : null}
        {a.notes ? <p className="text-xs text-stone-600">{a.notes}</p> : null}
        {room ? <DoneButDirty assignment={a} room={room} /> : null}
      </div>
      {canWrite ? (
        <div className="flex flex-wrap items-center gap-1.5">
          {room && a.date === board.today ? <RoomActions room={room} today={board.today} /> : null}
          {assignmentNext[a.status].map((next) => (
            <Button
              key={next.status}
              variant="secondary"
              className="px-2 py-1 text-xs"
              disabled={update.isPending}
              aria-label={`Room ${number}: assignment ${next.label.toLowerCase()}`}
              onClick={() => update.mutate({ id: a.id, status: next.status })}
            >
              {next.label}
            </Button>
          ))}
          {canAssign ? (
            <>
              <Menu
                label={`More for room ${number}`}
                trigger={
                  <Button variant="ghost" className="px-2 py-1" aria-label={`More for room ${number}`}>
                    <MoreHorizontal className="h-4 w-4" aria-hidden />
                  </Button>
                }
                items={[
                  ...others.map((p) => ({
                    label: `Reassign to ${p.name ?? p.email}`,
                    onSelect: () => update.mutate({ id: a.id, assignee: p.email }),
                  })),
                  { label: "Remove assignment…", danger: true, onSelect: () => setRemoving(true) },
                ]}
              />
              <ConfirmDialog
                open={removing}
                onOpenChange={(open) => {
                  if (!open) remove.reset();
                  setRemoving(open);
                }}
                title={`Remove room ${number} from ${a.assignee}?`}
                description="The room goes back to the unassigned rooms of the day."
                confirmLabel="Remove"
                danger
                pending={remove.isPending}
                error={remove.error ? callError(remove.error).message : null}
                onConfirm={() => remove.mutate({ id: a.id })}
              />
            </>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

const otherPerson = "__other__";

const assignForm = z.object({ rooms: z.array(z.string()), person: z.string(), other: z.string().trim().max(100, "At most 100 characters."), notes: z.string().trim().max(1000, "At most 1,000 characters.") });
type AssignForm = z.input<typeof assignForm>;

/** Select rooms (dirty first), pick a housekeeper (or type a name), assign them all at once. */
function AssignForm({ board, date, unassigned, people }: { board: Board; date: string; unassigned: Board["rooms"]; people: Person[] }) {
  const trpc = useTRPC();
  const refresh = useAssignmentInvalidation();
  const form = useZodForm(assignForm, { defaultValues: { rooms: [], person: "", other: "", notes: "" } });
  const [selected, person, other] = form.watch(["rooms", "person", "other"]);
  const create = useMutation(trpc.housekeeping.assignments.create.mutationOptions());
  const busy = form.formState.isSubmitting;
  const rooms = [...unassigned].sort((a, b) => Number(b.housekeeping_status === "dirty") - Number(a.housekeeping_status === "dirty"));
  const assignee = person === otherPerson ? other.trim() : person;
  const chosen = rooms.filter((r) => selected.includes(r.id));
  const select = (ids: string[]) => form.setValue("rooms", ids);

  // One call per room: a room refused (assigned meanwhile elsewhere) says so, the others are assigned.
  const submit = async (v: z.output<typeof assignForm>) => {
    const who = v.person === otherPerson ? v.other : v.person;
    const picked = rooms.filter((r) => v.rooms.includes(r.id));
    if (!picked.length || !who) return;
    const results = await Promise.allSettled(picked.map((r) => create.mutateAsync({ property_id: board.property.id, date, room_id: r.id, assignee: who, notes: v.notes || undefined })));
    const failed = results.flatMap((r, i) => (r.status === "rejected" ? [`Room ${picked[i].number}: ${callError(r.reason).message}`] : []));
    const done = results.length - failed.length;
    if (done) toast.success(`${plural(done, "room")} assigned to ${who}.`);
    for (const message of failed) toast.error(message);
    form.reset({ ...v, rooms: [], notes: "" });
    await refresh();
  };

  return (
    <Card title="Assign rooms">
      {rooms.length === 0 ? (
        <p className="text-sm text-stone-500">Every room has an assignment on this day.</p>
      ) : (
        <Form form={form} onSubmit={submit} className="space-y-3">
          <fieldset>
            <legend className="mb-2 flex flex-wrap items-center gap-2 text-xs font-medium text-stone-600">
              Rooms without an assignment ({rooms.length})
              <button
                type="button"
                className="text-teal-800 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
                onClick={() => select(rooms.filter((r) => r.housekeeping_status === "dirty").map((r) => r.id))}
              >
                Select dirty
              </button>
              {selected.length ? (
                <button
                  type="button"
                  className="text-stone-500 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
                  onClick={() => select([])}
                >
                  Clear
                </button>
              ) : null}
            </legend>
            <div className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto">
              {rooms.map((r) => (
                <label
                  key={r.id}
                  className={cx(
                    "flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 text-sm focus-within:ring-2 focus-within:ring-teal-600",
                    selected.includes(r.id) ? "border-teal-600 bg-teal-50 text-teal-900" : "border-stone-200 bg-white text-stone-700",
                  )}
                >
                  <input type="checkbox" className="accent-teal-700" value={r.id} {...form.register("rooms")} aria-label={`Room ${r.number} (${statusLabel[r.housekeeping_status]})`} />
                  <span className="font-medium">{r.number}</span>
                  <span className="text-xs text-stone-500">{statusLabel[r.housekeeping_status]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <FormField<AssignForm> name="person" label="Housekeeper">
              {(control) => (
                <Select {...control}>
                  <option value="">Choose…</option>
                  {people.map((p) => (
                    <option key={p.email} value={p.email}>
                      {p.name ? `${p.name} (${p.email})` : p.email}
                    </option>
                  ))}
                  <option value={otherPerson}>Someone without an account…</option>
                </Select>
              )}
            </FormField>
            {person === otherPerson ? (
              <FormField<AssignForm> name="other" label="Name">
                {(control) => <Input {...control} maxLength={100} />}
              </FormField>
            ) : null}
            <FormField<AssignForm>
              name="notes"
              label={chosen.length > 1 ? `Note for all ${chosen.length} rooms (optional)` : "Note (optional)"}
              hint={chosen.length > 1 ? "Every selected room gets this note. For a note about one room, assign that room on its own." : undefined}
            >
              {(control) => <Input {...control} maxLength={1000} placeholder="Deep clean, VIP arrival…" />}
            </FormField>
          </div>
          <Button type="submit" disabled={busy || !chosen.length || !assignee}>
            {busy ? "Assigning…" : chosen.length ? `Assign ${plural(chosen.length, "room")}` : "Assign rooms"}
          </Button>
        </Form>
      )}
    </Card>
  );
}
