"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { z } from "zod";
import { Button, Input, Select } from "@/components/ui";
import { FormField, FormFieldset, useZodForm } from "@/components/ui/form";
import { usePropertyFormat } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";
import type { Money } from "@/lib/money";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { balanceWords, nightsLabel } from "./format";
import { PreviewConfirmDialog } from "./preview-confirm-dialog";
import { StayPriceBreakdown } from "./stay-price";

// The changes of a stay that are priced before they are made: modify, upgrade, change of departure.

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

const modifyForm = z.object({
  check_in: z.string().min(1, "Choose the arrival date."),
  check_out: z.string().min(1, "Choose the departure date."),
  room_type_id: z.string(),
  rate_plan_id: z.string(),
  adults: z.number({ error: "Enter a number of adults." }).int().min(1, "At least 1 adult."),
  children: z.number({ error: "Enter a number of children, or 0." }).int().min(0, "0 or more."),
});
type ModifyForm = z.input<typeof modifyForm>;
type ModifyValues = z.output<typeof modifyForm>;

/** Change dates, room type, rate plan or party: re-quoted first, applied on confirmation. */
export function ModifyDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const initial = {
    check_in: r.check_in,
    check_out: r.check_out,
    room_type_id: r.room_type_id,
    rate_plan_id: r.rate_plan_id,
    adults: r.adults,
    children: r.children,
  };
  const [open, setOpen] = useState(false);
  const form = useZodForm(modifyForm, { defaultValues: initial });
  const draft = form.watch();
  // The change as it was last priced; any edit asks for a new price.
  const [asked, setAsked] = useState<ModifyValues | null>(null);
  const lookups = useQuery({ ...trpc.reservations.lookups.queryOptions({ property_id: desk.property.id }), enabled: open });
  const preview = useQuery({
    ...trpc.reservations.previewUpdate.queryOptions({ id: r.id, ...(asked ?? initial) }),
    enabled: open && asked !== null,
    retry: false,
    staleTime: 0,
  });
  const update = useMutation(
    trpc.reservations.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Reservation modified");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const plans = lookups.data?.rate_plans.filter((p) => p.active && p.room_type_ids.includes(draft.room_type_id)) ?? [];
  const previewMatches = asked && sameChange(asked, draft) && preview.data;
  // Another room type takes the first active plan sold for it.
  const pickType = (type: string) => {
    const plan = lookups.data?.rate_plans.find((p) => p.active && p.room_type_ids.includes(type));
    if (plan) form.setValue("rate_plan_id", plan.id);
  };
  return (
    <PreviewConfirmDialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        form.reset(initial);
        setAsked(null);
        update.reset();
      }}
      title="Modify the stay"
      description="The new stay is priced and checked before anything changes."
      trigger={<Button variant="secondary">Modify</Button>}
      form={form}
      previewError={asked && preview.error}
      applyError={update.error}
      quote={
        previewMatches ? (
          <p className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="modify-quote">
            New stay: {fmt.day(preview.data!.check_in, "short")} → {fmt.day(preview.data!.check_out, "short")}, {nightsLabel(preview.data!.nights)},
            total <strong>{fmt.money(preview.data!.total)}</strong> (was {fmt.money(r.total)}).
          </p>
        ) : null
      }
      price={{ label: "Re-quote", disabled: false, pending: asked !== null && preview.isFetching, onSubmit: setAsked }}
      confirm={{ label: "Confirm change", pending: update.isPending, onClick: () => asked && update.mutate({ id: r.id, ...asked }) }}
    >
      <div className="grid grid-cols-2 gap-3">
        <FormField<ModifyForm> name="check_in" label="Check-in">
          {(control) => <Input {...control} type="date" />}
        </FormField>
        <FormField<ModifyForm> name="check_out" label="Check-out">
          {(control) => <Input {...control} type="date" />}
        </FormField>
        <FormField<ModifyForm> name="room_type_id" label="Room type" options={{ onChange: (e: { target: { value: string } }) => pickType(e.target.value) }}>
          {(control) => (
            <Select {...control}>
              {(lookups.data?.room_types ?? [desk.room_type]).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField<ModifyForm> name="rate_plan_id" label="Rate plan">
          {/* Its options follow the room type: a new list is a new select, which shows the plan the type took. */}
          {(control) => (
            <Select {...control} key={draft.room_type_id}>
              {(plans.length ? plans : [desk.rate_plan]).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField<ModifyForm> name="adults" label="Adults" options={{ valueAsNumber: true }}>
          {(control) => <Input {...control} type="number" min={1} />}
        </FormField>
        <FormField<ModifyForm> name="children" label="Children" options={{ valueAsNumber: true }}>
          {(control) => <Input {...control} type="number" min={0} />}
        </FormField>
      </div>
    </PreviewConfirmDialog>
  );
}

/** The change priced is the change on screen: every field the same. */
const sameChange = (a: ModifyValues, b: ModifyForm) => (Object.keys(a) as (keyof ModifyValues)[]).every((k) => a[k] === b[k]);

const upgradeForm = z.object({ room_type_id: z.string().min(1, "Choose the new room type."), charge: z.enum(["difference", "none"]) });
type UpgradeForm = z.input<typeof upgradeForm>;

/** Move the stay to a better room type, at its price or free: priced first, applied on confirmation. */
export function UpgradeDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const [open, setOpen] = useState(false);
  const form = useZodForm(upgradeForm, { defaultValues: { room_type_id: "", charge: "difference" } });
  const draft = form.watch();
  const [asked, setAsked] = useState<UpgradeForm | null>(null);
  const lookups = useQuery({ ...trpc.reservations.lookups.queryOptions({ property_id: desk.property.id }), enabled: open });
  const preview = useQuery({ ...trpc.reservations.previewUpgrade.queryOptions({ id: r.id, ...(asked ?? draft) }), enabled: open && asked !== null, retry: false, staleTime: 0 });
  const upgrade = useMutation(
    trpc.reservations.upgrade.mutationOptions({
      onSuccess: async (_, change) => {
        toast.success(change.charge === "none" ? "Upgraded free of charge" : "Upgraded");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const types = (lookups.data?.room_types ?? []).filter((t) => t.id !== r.room_type_id);
  const matches = asked && asked.room_type_id === draft.room_type_id && asked.charge === draft.charge && preview.data;
  return (
    <PreviewConfirmDialog
      open={open}
      onOpenChange={(o) => (setOpen(o), form.reset(), setAsked(null), upgrade.reset())}
      title="Upgrade the stay"
      description={r.status === "checked_in" ? "The nights from tonight move to the new room type; the guest moves to a ready room of it." : "Every night of the stay moves to the new room type."}
      trigger={<Button variant="secondary">Upgrade</Button>}
      form={form}
      previewError={asked && preview.error}
      applyError={upgrade.error}
      quote={
        matches ? (
          <p className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="upgrade-quote">
            {nightsLabel(preview.data!.nights)} upgraded. New total <strong>{fmt.money(preview.data!.total)}</strong> (was {fmt.money(preview.data!.total_before)}),{" "}
            {preview.data!.difference.amount === 0 ? "no change in price" : `${preview.data!.difference.amount > 0 ? "" : "a reduction of "}${fmt.money({ ...preview.data!.difference, amount: Math.abs(preview.data!.difference.amount) })}${preview.data!.difference.amount > 0 ? " more" : ""}`}
            ; balance after it {fmt.money(preview.data!.balance)}.
          </p>
        ) : null
      }
      price={{ label: "Price it", disabled: !draft.room_type_id, pending: asked !== null && preview.isFetching, onSubmit: setAsked }}
      confirm={{ label: "Confirm upgrade", pending: upgrade.isPending, onClick: () => asked && upgrade.mutate({ id: r.id, ...asked }) }}
    >
      <FormField<UpgradeForm> name="room_type_id" label="New room type">
        {(control) => (
          <Select {...control}>
            <option value="">{lookups.isLoading ? "Loading…" : "Choose…"}</option>
            {types.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormFieldset<UpgradeForm> name="charge" className="space-y-1" legend="Price" legendClassName="text-sm font-medium text-stone-800">
        {(
          [
            ["difference", "At the new room type's price", "The nights are re-priced; the folio's room charges follow."],
            ["none", "Free of charge", "The nights keep their price; the folio shows a complimentary upgrade."],
          ] as const
        ).map(([value, label, hint]) => (
          <label key={value} className="flex items-start gap-2 text-sm text-stone-800">
            <input type="radio" value={value} {...form.register("charge")} className="mt-1 accent-teal-700" />
            <span>
              {label}
              <span className="block text-xs text-stone-500">{hint}</span>
            </span>
          </label>
        ))}
      </FormFieldset>
    </PreviewConfirmDialog>
  );
}

const departureForm = z.object({ check_out: z.string().min(1, "Choose the new check-out date.") });
type DepartureForm = z.input<typeof departureForm>;

/** Leave early or extend a stay in house: priced first (nights, total, fee, balance), applied on confirmation. */
export function DepartureDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const r = desk.reservation;
  const [open, setOpen] = useState(false);
  const form = useZodForm(departureForm, { defaultValues: { check_out: r.check_out } });
  const date = form.watch("check_out");
  const [asked, setAsked] = useState<string | null>(null);
  const preview = useQuery({ ...trpc.reservations.previewDeparture.queryOptions({ id: r.id, check_out: asked ?? r.check_out }), enabled: open && asked !== null, retry: false, staleTime: 0 });
  const change = useMutation(
    trpc.reservations.changeDeparture.mutationOptions({
      onSuccess: async () => {
        toast.success("Departure changed");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const matches = asked === date && preview.data;
  return (
    <PreviewConfirmDialog
      open={open}
      onOpenChange={(o) => (setOpen(o), form.reset({ check_out: r.check_out }), setAsked(null), change.reset())}
      title="Change the departure"
      description="An earlier date gives the nights back and posts the rate plan's early-departure fee; a later one sells and charges the extra nights."
      size="sm"
      trigger={<Button variant="secondary">Change departure</Button>}
      form={form}
      previewError={asked && preview.error}
      applyError={change.error}
      quote={matches ? <DepartureQuote preview={preview.data!} was={r.price.gross} /> : null}
      price={{ label: "Price it", disabled: date === r.check_out, pending: asked !== null && preview.isFetching, onSubmit: (v) => setAsked(v.check_out) }}
      confirm={{ label: "Confirm new departure", pending: change.isPending, onClick: () => asked && change.mutate({ id: r.id, check_out: asked }) }}
    >
      <FormField<DepartureForm> name="check_out" label="New check-out">
        {(control) => <Input {...control} type="date" min={desk.property.today} />}
      </FormField>
    </PreviewConfirmDialog>
  );
}

type DeparturePreview = inferRouterOutputs<AppRouter>["reservations"]["previewDeparture"];

/** The stay a departure gives, in words: the new end, its price (what the guest pays, taxes included), the fee and what the folio then owes. */
function DepartureQuote({ preview, was }: { preview: DeparturePreview; was: Money }) {
  const fmt = usePropertyFormat();
  const formatDate = (d: string) => fmt.day(d);
  const formatMoney = fmt.money;
  return (
    <div className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="departure-quote">
      The stay ends on {formatDate(preview.check_out)}, {nightsLabel(preview.nights)}, price <strong>{formatMoney(preview.price.gross)}</strong> (was {formatMoney(was)})
      {preview.fee.amount ? <>, plus an early-departure fee of {formatMoney(preview.fee)}</> : null}. The folio then {balanceWords(preview.balance, fmt.money)}.
      <StayPriceBreakdown price={preview.price} className="mt-1 text-xs text-teal-900" />
    </div>
  );
}

