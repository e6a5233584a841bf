"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { Button, Field, Input, Select } from "@/components/ui";
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
  const [draft, setDraft] = useState(initial);
  const [asked, setAsked] = useState<typeof initial | null>(null);
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
  const set = (key: keyof typeof initial) => (e: { target: { value: string } }) => {
    setAsked(null);
    setDraft((d) => ({ ...d, [key]: key === "adults" || key === "children" ? Number(e.target.value) || 0 : e.target.value }));
  };
  const plans = lookups.data?.rate_plans.filter((p) => p.active && p.room_type_ids.includes(draft.room_type_id)) ?? [];
  const previewMatches = asked && JSON.stringify(asked) === JSON.stringify(draft) && preview.data;
  return (
    <PreviewConfirmDialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setDraft(initial);
        setAsked(null);
        update.reset();
      }}
      title="Modify the stay"
      description="The new stay is priced and checked before anything changes."
      trigger={<Button variant="secondary">Modify</Button>}
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
      price={{ label: "Re-quote", disabled: false, pending: asked !== null && preview.isFetching, onClick: () => setAsked(draft) }}
      confirm={{ label: "Confirm change", pending: update.isPending, onClick: () => update.mutate({ id: r.id, ...draft }) }}
    >
      <div className="grid grid-cols-2 gap-3">
        <Field label="Check-in" htmlFor="mod-check-in">
          <Input id="mod-check-in" type="date" value={draft.check_in} onChange={set("check_in")} />
        </Field>
        <Field label="Check-out" htmlFor="mod-check-out">
          <Input id="mod-check-out" type="date" value={draft.check_out} onChange={set("check_out")} />
        </Field>
        <Field label="Room type" htmlFor="mod-type">
          <Select
            id="mod-type"
            value={draft.room_type_id}
            onChange={(e) => {
              const type = e.target.value;
              const plan = lookups.data?.rate_plans.find((p) => p.active && p.room_type_ids.includes(type));
              setAsked(null);
              setDraft((d) => ({
                ...d,
                room_type_id: type,
                rate_plan_id: plan?.room_type_ids.includes(type) && plan.id === d.rate_plan_id ? d.rate_plan_id : (plan?.id ?? d.rate_plan_id),
              }));
            }}
          >
            {(lookups.data?.room_types ?? [desk.room_type]).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Rate plan" htmlFor="mod-plan">
          <Select id="mod-plan" value={draft.rate_plan_id} onChange={set("rate_plan_id")}>
            {(plans.length ? plans : [desk.rate_plan]).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Adults" htmlFor="mod-adults">
          <Input id="mod-adults" type="number" min={1} value={draft.adults} onChange={set("adults")} />
        </Field>
        <Field label="Children" htmlFor="mod-children">
          <Input id="mod-children" type="number" min={0} value={draft.children} onChange={set("children")} />
        </Field>
      </div>
    </PreviewConfirmDialog>
  );
}

/** Move the stay to a better room type, at its price or free: priced first, applied on confirmation. */
export function UpgradeDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState({ room_type_id: "", charge: "difference" as "difference" | "none" });
  const [asked, setAsked] = useState<typeof draft | null>(null);
  const lookups = useQuery({ ...trpc.reservations.lookups.queryOptions({ property_id: desk.property.id }), enabled: open });
  const preview = useQuery({ ...trpc.reservations.previewUpgrade.queryOptions({ id: r.id, ...(asked ?? draft) }), enabled: open && asked !== null, retry: false, staleTime: 0 });
  const upgrade = useMutation(
    trpc.reservations.upgrade.mutationOptions({
      onSuccess: async () => {
        toast.success(draft.charge === "none" ? "Upgraded free of charge" : "Upgraded");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const types = (lookups.data?.room_types ?? []).filter((t) => t.id !== r.room_type_id);
  const change = (next: Partial<typeof draft>) => (setDraft((d) => ({ ...d, ...next })), setAsked(null));
  const matches = asked && asked.room_type_id === draft.room_type_id && asked.charge === draft.charge && preview.data;
  return (
    <PreviewConfirmDialog
      open={open}
      onOpenChange={(o) => (setOpen(o), setDraft({ room_type_id: "", charge: "difference" }), setAsked(null), upgrade.reset())}
      title="Upgrade the stay"
      description={r.status === "checked_in" ? "The nights from tonight move to the new room type; the guest moves to a ready room of it." : "Every night of the stay moves to the new room type."}
      trigger={<Button variant="secondary">Upgrade</Button>}
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
      price={{ label: "Price it", disabled: !draft.room_type_id, pending: asked !== null && preview.isFetching, onClick: () => setAsked(draft) }}
      confirm={{ label: "Confirm upgrade", pending: upgrade.isPending, onClick: () => upgrade.mutate({ id: r.id, ...draft }) }}
    >
      <Field label="New room type" htmlFor="upgrade-type">
        <Select id="upgrade-type" value={draft.room_type_id} onChange={(e) => change({ room_type_id: e.target.value })}>
          <option value="">{lookups.isLoading ? "Loading…" : "Choose…"}</option>
          {types.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </Select>
      </Field>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-stone-800">Price</legend>
        {(
          [
            ["difference", "At the new room type's price", "The nights are re-priced; the folio's room charges follow."],
            ["none", "Free of charge", "The nights keep their price; the folio shows a complimentary upgrade."],
          ] as const
        ).map(([value, label, hint]) => (
          <label key={value} className="flex items-start gap-2 text-sm text-stone-800">
            <input type="radio" name="upgrade-charge" value={value} checked={draft.charge === value} onChange={() => change({ charge: value })} className="mt-1 accent-teal-700" />
            <span>
              {label}
              <span className="block text-xs text-stone-500">{hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </PreviewConfirmDialog>
  );
}

/** Leave early or extend a stay in house: priced first (nights, total, fee, balance), applied on confirmation. */
export function DepartureDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const r = desk.reservation;
  const [open, setOpen] = useState(false);
  const [date, setDate] = useState(r.check_out);
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
      onOpenChange={(o) => (setOpen(o), setDate(r.check_out), setAsked(null), change.reset())}
      title="Change the departure"
      description="An earlier date gives the nights back and posts the rate plan's early-departure fee; a later one sells and charges the extra nights."
      size="sm"
      trigger={<Button variant="secondary">Change departure</Button>}
      previewError={asked && preview.error}
      applyError={change.error}
      quote={matches ? <DepartureQuote preview={preview.data!} was={r.price.gross} /> : null}
      price={{ label: "Price it", disabled: date === r.check_out, pending: asked !== null && preview.isFetching, onClick: () => setAsked(date) }}
      confirm={{ label: "Confirm new departure", pending: change.isPending, onClick: () => change.mutate({ id: r.id, check_out: date }) }}
    >
      <Field label="New check-out" htmlFor="departure-date">
        <Input id="departure-date" type="date" value={date} min={desk.property.today} onChange={(e) => (setDate(e.target.value), setAsked(null))} />
      </Field>
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

