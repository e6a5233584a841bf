"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Input, Select } from "@/components/ui";
import { Dialog, DialogActions, DialogClose } from "@/components/ui/dialog";
import { Form, FormField, useZodForm } from "@/components/ui/form";
import { type Formatters } from "@/components/ui/property-format";
import { LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { StayPriceBreakdown } from "./stay-price";
import { addDays, daysBetween } from "@/lib/dates";
import { reservationStatusWords } from "@/lib/words";
import type { Chart, Pending, Row, Stay } from "./tape-chart-model";

// The room chart's dialogs: a tapped stay's menu (move it, change its departure) and the priced change to confirm.

const moveForm = z.object({ target: z.string() });
type MoveForm = z.input<typeof moveForm>;
const endForm = z.object({ check_out: z.string().min(1, "Choose the departure date.") });
type EndForm = z.input<typeof endForm>;

/** A tap on a stay (the touch way, and a mouse click): move it or change its departure from a form. */
export function StayMenu({
  stay,
  chart,
  fmt,
  onClose,
  onChoose,
  dropChange,
  endChange,
  place,
}: {
  stay: Stay;
  chart: Chart;
  fmt: Formatters;
  onClose: () => void;
  onChoose: (next: Pending | string | null) => void;
  dropChange: (stay: Stay, row: Row | undefined) => Pending | string | null;
  endChange: (stay: Stay, nights: number) => Pending | null;
  place: (stay: Stay) => string;
}) {
  const type = chart.room_types.find((t) => t.id === stay.room_type_id);
  const targets: Row[] =
    stay.status === "checked_in"
      ? (type?.rooms ?? []).filter((r) => r.id !== stay.room_id).map((r) => ({ kind: "room", id: `room:${r.id}`, typeId: type!.id, label: `Room ${r.number}` }))
      : stay.status === "confirmed"
        ? chart.room_types.filter((t) => t.id !== stay.room_type_id).map((t) => ({ kind: "unassigned", id: `unassigned:${t.id}`, typeId: t.id, label: t.name }))
        : [];
  const move = useZodForm(moveForm, { defaultValues: { target: targets[0]?.id ?? "" } });
  const end = useZodForm(endForm, { defaultValues: { check_out: stay.check_out } });
  const checkOut = end.watch("check_out");
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={stay.guest_name} description={`${reservationStatusWords[stay.status]} · ${place(stay)} · ${fmt.day(stay.check_in, "weekday")} to ${fmt.day(stay.check_out, "weekday")}`}>
      <div className="space-y-4">
        {targets.length ? (
          <Form form={move} className="flex flex-wrap items-end gap-2" onSubmit={(v) => onChoose(dropChange(stay, targets.find((t) => t.id === v.target)))}>
            <FormField<MoveForm> name="target" label={stay.status === "checked_in" ? "Move to room" : "Change room type to"}>
              {(control) => (
                <Select {...control}>
                  {targets.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.label}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <Button type="submit" variant="secondary">
              Move…
            </Button>
          </Form>
        ) : null}
        {stay.can_resize ? (
          <Form form={end} className="flex flex-wrap items-end gap-2" onSubmit={(v) => onChoose(endChange(stay, daysBetween(stay.check_out, v.check_out)))}>
            <FormField<EndForm> name="check_out" label="Departure">
              {(control) => <Input {...control} type="date" min={addDays(stay.check_in, 1)} className="w-44" />}
            </FormField>
            <Button type="submit" variant="secondary" disabled={checkOut === stay.check_out}>
              Change departure…
            </Button>
          </Form>
        ) : (
          <p className="text-sm text-stone-600">A stay that has checked out no longer changes here.</p>
        )}
        <div className="flex justify-between gap-2">
          <Link href={`/reservations/${stay.reservation_id}`} className="self-center text-sm font-medium text-teal-800 underline-offset-2 hover:underline">
            Open the reservation
          </Link>
          <DialogClose asChild>
            <Button variant="ghost">Close</Button>
          </DialogClose>
        </div>
      </div>
    </Dialog>
  );
}

/** The change, its price before and after (the server's preview), and Confirm. */
export function ConfirmChange({ pending, fmt, onClose }: { pending: Pending; fmt: Formatters; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useQuery({ ...trpc.tapeChart.preview.queryOptions(pending.change), retry: false, staleTime: 0, gcTime: 0 });
  const save = useMutation(
    trpc.tapeChart.save.mutationOptions({
      onSuccess: async () => {
        toast.success(`${pending.what}: saved.`);
        onClose();
        await queryClient.invalidateQueries(trpc.tapeChart.window.queryFilter());
      },
    }),
  );
  const p = preview.data;
  const diff = p?.difference.amount ?? 0;
  return (
    <Dialog open onOpenChange={(open) => !open && !save.isPending && onClose()} title="Confirm the change" description={pending.what}>
      <div className="space-y-3" data-testid="change-preview">
        {preview.isLoading ? (
          <LoadingState rows={2} label="Pricing the change…" />
        ) : preview.error ? (
          <Alert>{fmt.words(callError(preview.error).message)}</Alert>
        ) : p ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600">Price before</dt>
            <dd className="text-stone-900" data-testid="price-before">
              {fmt.money(p.before.price.gross)} · {p.before.nights} night{p.before.nights === 1 ? "" : "s"}
              <StayPriceBreakdown price={p.before.price} />
            </dd>
            <dt className="text-stone-600">Price after</dt>
            <dd className="text-stone-900" data-testid="price-after">
              {fmt.money(p.after.price.gross)} · {p.after.nights} night{p.after.nights === 1 ? "" : "s"}
              <StayPriceBreakdown price={p.after.price} />
            </dd>
            {p.fee.amount ? (
              <>
                <dt className="text-stone-600">Early departure fee</dt>
                <dd className="text-stone-900">{fmt.money(p.fee)}</dd>
              </>
            ) : null}
            <dt className="font-medium text-stone-800">Price change</dt>
            <dd className="font-semibold text-stone-900" data-testid="price-change">
              {diff === 0 ? "No change in price" : diff > 0 ? `${fmt.money(p.difference)} more` : `${fmt.money({ ...p.difference, amount: -diff })} less`}
            </dd>
          </dl>
        ) : null}
        {save.error ? <Alert>{fmt.words(callError(save.error).message)}</Alert> : null}
        <DialogActions
          className="flex flex-wrap justify-end gap-2 pt-2"
          label="Confirm"
          pendingLabel="Saving…"
          pending={save.isPending}
          disabled={!p || save.isPending}
          onClick={() => save.mutate(pending.change)}
        />
      </div>
    </Dialog>
  );
}
