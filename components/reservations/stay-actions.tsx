"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { ConfirmDialog, Dialog, DialogClose } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";
import { usePropertyFormat } from "@/components/ui/property-format";
import type { Money } from "@/lib/money";
import { housekeepingLabels, nightsLabel } from "./format";
import { PaymentDialog } from "./folio-dialogs";
import { GuestPanel } from "./guest-panel";
import { StayPriceBreakdown } from "./stay-price";
import { CheckOutDialog } from "./check-out-dialog";

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

/** Change dates, room type, rate plan or party: re-quoted first, applied on confirmation. */
function ModifyDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
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
    <Dialog
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
    >
      <div className="space-y-3">
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
        {asked && preview.error ? <Alert>{callError(preview.error).message}</Alert> : null}
        {update.error ? <Alert>{callError(update.error).message}</Alert> : null}
        {previewMatches ? (
          <p className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="modify-quote">
            New stay: {fmt.day(preview.data!.check_in, "short")} → {fmt.day(preview.data!.check_out, "short")}, {nightsLabel(preview.data!.nights)},
            total <strong>{fmt.money(preview.data!.total)}</strong> (was {fmt.money(r.total)}).
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          {previewMatches ? (
            <Button disabled={update.isPending} onClick={() => update.mutate({ id: r.id, ...draft })}>
              {update.isPending ? "Saving…" : "Confirm change"}
            </Button>
          ) : (
            <Button disabled={asked !== null && preview.isFetching} onClick={() => setAsked(draft)}>
              {asked !== null && preview.isFetching ? "Pricing…" : "Re-quote"}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

/** Move the stay to a better room type, at its price or free: priced first, applied on confirmation. */
function UpgradeDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
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
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), setDraft({ room_type_id: "", charge: "difference" }), setAsked(null), upgrade.reset())}
      title="Upgrade the stay"
      description={r.status === "checked_in" ? "The nights from tonight move to the new room type; the guest moves to a ready room of it." : "Every night of the stay moves to the new room type."}
      trigger={<Button variant="secondary">Upgrade</Button>}
    >
      <div className="space-y-3">
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
        {asked && preview.error ? <Alert>{callError(preview.error).message}</Alert> : null}
        {upgrade.error ? <Alert>{callError(upgrade.error).message}</Alert> : null}
        {matches ? (
          <p className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="upgrade-quote">
            {nightsLabel(preview.data!.nights)} upgraded. New total <strong>{fmt.money(preview.data!.total)}</strong> (was {fmt.money(preview.data!.total_before)}),{" "}
            {preview.data!.difference.amount === 0 ? "no change in price" : `${preview.data!.difference.amount > 0 ? "" : "a reduction of "}${fmt.money({ ...preview.data!.difference, amount: Math.abs(preview.data!.difference.amount) })}${preview.data!.difference.amount > 0 ? " more" : ""}`}
            ; balance after it {fmt.money(preview.data!.balance)}.
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          {matches ? (
            <Button disabled={upgrade.isPending} onClick={() => upgrade.mutate({ id: r.id, ...draft })}>
              {upgrade.isPending ? "Saving…" : "Confirm upgrade"}
            </Button>
          ) : (
            <Button disabled={!draft.room_type_id || (asked !== null && preview.isFetching)} onClick={() => setAsked(draft)}>
              {asked !== null && preview.isFetching ? "Pricing…" : "Price it"}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

/** Leave early or extend a stay in house: priced first (nights, total, fee, balance), applied on confirmation. */
function DepartureDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
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
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), setDate(r.check_out), setAsked(null), change.reset())}
      title="Change the departure"
      description="An earlier date gives the nights back and posts the rate plan's early-departure fee; a later one sells and charges the extra nights."
      size="sm"
      trigger={<Button variant="secondary">Change departure</Button>}
    >
      <div className="space-y-3">
        <Field label="New check-out" htmlFor="departure-date">
          <Input id="departure-date" type="date" value={date} min={desk.property.today} onChange={(e) => (setDate(e.target.value), setAsked(null))} />
        </Field>
        {asked && preview.error ? <Alert>{callError(preview.error).message}</Alert> : null}
        {change.error ? <Alert>{callError(change.error).message}</Alert> : null}
        {matches ? <DepartureQuote preview={preview.data!} was={r.price.gross} /> : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          {matches ? (
            <Button disabled={change.isPending} onClick={() => change.mutate({ id: r.id, check_out: date })}>
              {change.isPending ? "Saving…" : "Confirm new departure"}
            </Button>
          ) : (
            <Button disabled={date === r.check_out || (asked !== null && preview.isFetching)} onClick={() => setAsked(date)}>
              {asked !== null && preview.isFetching ? "Pricing…" : "Price it"}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
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

const balanceWords = (balance: Money, formatMoney: (m: Money) => string) =>
  balance.amount > 0 ? `owes ${formatMoney(balance)}` : balance.amount < 0 ? `holds ${formatMoney({ ...balance, amount: -balance.amount })} to refund` : "is settled";

type LatePreview = inferRouterOutputs<AppRouter>["reservations"]["previewLateCheckOut"];

/** What a late check-out posts, in money, before it is granted: the plan's fee and the balance after it, or that there is no fee. */
function LateCheckOutQuote({ planName, quote, loading }: { planName: string; quote: LatePreview | undefined; loading: boolean }) {
  const fmt = usePropertyFormat();
  if (!quote) return <p>{loading ? "Working out the fee…" : "The fee could not be worked out."}</p>;
  return (
    <p data-testid="late-check-out-quote">
      The guest keeps the room past check-out time today.{" "}
      {quote.fee.amount > 0 ? (
        <>
          {planName}&apos;s late check-out fee of <strong>{fmt.money(quote.fee)}</strong> is posted to the folio, which then {balanceWords(quote.balance, fmt.money)}.
        </>
      ) : (
        <>{planName} has no late check-out fee: nothing is charged.</>
      )}
    </p>
  );
}

type ReadyRooms = { error: unknown; data?: Array<{ id: string; number: string; floor: number | null; housekeeping_status: keyof typeof housekeepingLabels }> };

/** The free clean or inspected rooms of the stay's type, asked for while `open`; the first is chosen until the clerk picks. */
function useReadyRooms(desk: Desk, open: boolean) {
  const trpc = useTRPC();
  const [roomId, setRoomId] = useState("");
  const ready = useQuery({ ...trpc.reservations.readyRooms.queryOptions({ id: desk.reservation.id }), enabled: open, staleTime: 0 });
  return { ready, chosen: roomId || ready.data?.[0]?.id || "", choose: setRoomId, reset: () => setRoomId("") };
}

/** The choice of one of those rooms, or why there is none (check-in and room moves alike). */
function ReadyRoomPicker({ ready, chosen, choose, id, label, none }: { ready: ReadyRooms; chosen: string; choose: (id: string) => void; id: string; label: string; none: string }) {
  if (ready.error) return <Alert>{callError(ready.error).message}</Alert>;
  if (!ready.data) return <p className="text-sm text-stone-500">Loading rooms…</p>;
  if (ready.data.length === 0) return <Alert>{none}</Alert>;
  return (
    <Field label={label} htmlFor={id}>
      <Select id={id} value={chosen} onChange={(e) => choose(e.target.value)}>
        {ready.data.map((room) => (
          <option key={room.id} value={room.id}>
            Room {room.number}
            {room.floor !== null ? `, floor ${room.floor}` : ""} · {housekeepingLabels[room.housekeeping_status]}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Move the guest in house to another free, clean or inspected room of the type; the room left turns dirty. */
function MoveRoomDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const rooms = useReadyRooms(desk, open);
  const move = useMutation(
    trpc.reservations.moveRoom.mutationOptions({
      onSuccess: async () => {
        toast.success(`Moved; room ${desk.room?.number ?? ""} is now dirty`);
        setOpen(false);
        await onDone();
      },
    }),
  );
  const chosen = rooms.chosen;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), rooms.reset(), setReason(""), move.reset())}
      title="Move to another room"
      description={`${desk.room_type.name}: free rooms that are clean or inspected. Room ${desk.room?.number ?? ""} will be marked dirty.`}
      size="sm"
      trigger={<Button variant="secondary">Move room</Button>}
    >
      <div className="space-y-3">
        <ReadyRoomPicker ready={rooms.ready} chosen={chosen} choose={rooms.choose} id="move-room" label="New room" none="No other room of this type is clean and free." />
        <Field label="Reason (optional)" htmlFor="move-reason">
          <Input id="move-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {move.error ? <Alert>{callError(move.error).message}</Alert> : null}
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button disabled={!chosen || move.isPending} onClick={() => move.mutate({ id: desk.reservation.id, room_id: chosen, ...(reason.trim() ? { reason: reason.trim() } : {}) })}>
            {move.isPending ? "Moving…" : "Move guest"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/** Check in: the clerk picks one of the free clean or inspected rooms of the type. */
function CheckInDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const rooms = useReadyRooms(desk, open);
  const checkIn = useMutation(
    trpc.reservations.checkIn.mutationOptions({
      onSuccess: async () => {
        toast.success("Checked in");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const chosen = rooms.chosen;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), rooms.reset(), checkIn.reset())}
      title="Check in"
      description={`${desk.room_type.name}: free rooms that are clean or inspected.`}
      size="sm"
      trigger={<Button>Check in</Button>}
    >
      <div className="space-y-3">
        <section aria-label="About the guest" className="rounded-md border border-stone-200 bg-stone-50 p-3">
          <GuestPanel guestId={desk.reservation.guest.id} compact />
        </section>
        <ReadyRoomPicker
          ready={rooms.ready}
          chosen={chosen}
          choose={rooms.choose}
          id="checkin-room"
          label="Room"
          none="No room of this type is clean and free. Ask housekeeping to clean one, or modify the room type."
        />
        {checkIn.error ? <Alert>{callError(checkIn.error).message}</Alert> : null}
        <p className="text-sm">
          <a href={`/reservations/${desk.reservation.id}/registration-card`} target="_blank" rel="noopener" className="text-teal-800 hover:underline">
            Print the registration card
          </a>{" "}
          <span className="text-stone-500">for the guest to sign.</span>
        </p>
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button disabled={!chosen || checkIn.isPending} onClick={() => checkIn.mutate({ id: desk.reservation.id, room_id: chosen })}>
            {checkIn.isPending ? "Checking in…" : "Check in"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * The actions the reservation's state allows (decided by the server, by the rules the actions
 * enforce), each asking before it acts; an action not open yet says why.
 */
export function StayActions({ desk, balance, onDone }: { desk: Desk; balance: Money | undefined; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const a = desk.actions;
  const [dialog, setDialog] = useState<null | "cancel" | "checkout" | "noshow" | "late" | "pay">(null);
  const [reason, setReason] = useState("");
  const done = async (message: string) => {
    toast.success(message);
    setDialog(null);
    await onDone();
  };
  const cancel = useMutation(trpc.reservations.cancel.mutationOptions({ onSuccess: () => done("Reservation cancelled") }));
  const noShow = useMutation(trpc.reservations.noShow.mutationOptions({ onSuccess: () => done("Recorded as a no-show") }));
  const late = useMutation(trpc.reservations.lateCheckOut.mutationOptions({ onSuccess: () => done("Late check-out granted") }));
  // What a late check-out posts (the plan's fee, the balance after it), asked when its dialog opens.
  const lateQuote = useQuery({ ...trpc.reservations.previewLateCheckOut.queryOptions({ id: r.id }), enabled: dialog === "late", retry: false, staleTime: 0 });
  const open = (which: typeof dialog) => () => {
    cancel.reset();
    noShow.reset();
    late.reset();
    setDialog(which);
  };
  // The payment the check-out asked for (the balance due once the stay is shortened), else the folio's.
  const [payDue, setPayDue] = useState<Money | null>(null);
  const due = payDue ?? balance;
  const plan = desk.rate_plan;
  const policy = !plan.refundable
    ? `${plan.name} is non-refundable: the room charges stay on the folio as the cancellation charge.`
    : plan.free_cancellation_now
      ? `${plan.name} is refundable until ${plan.cancellation_deadline_hours} hours before arrival: cancelling now is free and the room charges are removed.`
      : `${plan.name} is refundable only until ${plan.cancellation_deadline_hours} hours before arrival, which has passed: the room charges stay as the cancellation charge.`;
  const closedNotes = [a.check_in, a.no_show].filter((x) => !x.allowed && r.status === "confirmed").map((x) => fmt.words(x.reason ?? ""));

  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Reservation actions">
        {a.check_in.allowed ? <CheckInDialog desk={desk} onDone={onDone} /> : null}
        {a.check_out.allowed ? <Button onClick={open("checkout")}>Check out</Button> : null}
        {a.late_check_out.allowed ? (
          <Button variant="secondary" onClick={open("late")}>
            Late check-out
          </Button>
        ) : null}
        {a.change_departure.allowed ? <DepartureDialog desk={desk} onDone={onDone} /> : null}
        {a.move_room.allowed ? <MoveRoomDialog desk={desk} onDone={onDone} /> : null}
        {a.modify.allowed ? <ModifyDialog desk={desk} onDone={onDone} /> : null}
        {a.upgrade.allowed ? <UpgradeDialog desk={desk} onDone={onDone} /> : null}
        {a.no_show.allowed ? (
          <Button variant="secondary" onClick={open("noshow")}>
            No-show
          </Button>
        ) : null}
        {a.cancel.allowed ? (
          <Button variant="danger" onClick={open("cancel")}>
            Cancel reservation
          </Button>
        ) : null}
      </div>
      {closedNotes.length ? (
        <ul className="mt-2 space-y-0.5 text-xs text-stone-500">
          {closedNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={dialog === "cancel"}
        onOpenChange={(o) => setDialog(o ? "cancel" : null)}
        title="Cancel this reservation?"
        description={<p data-testid="cancel-policy">{policy}</p>}
        confirmLabel="Cancel reservation"
        danger
        pending={cancel.isPending}
        error={cancel.error ? callError(cancel.error).message : null}
        onConfirm={() => cancel.mutate({ id: r.id, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
      >
        <Field label="Reason (optional)" htmlFor="cancel-reason">
          <Input id="cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
      </ConfirmDialog>

      <CheckOutDialog
        desk={desk}
        open={dialog === "checkout"}
        onOpenChange={(o) => setDialog(o ? "checkout" : null)}
        onTakePayment={(amount) => (setPayDue(amount), setDialog("pay"))}
        onDone={onDone}
      />

      <ConfirmDialog
        open={dialog === "noshow"}
        onOpenChange={(o) => setDialog(o ? "noshow" : null)}
        title="Record a no-show?"
        description={<p>The guest never arrived. The nights go back on sale, and the room charges are replaced by the rate plan&apos;s no-show fee.</p>}
        confirmLabel="Record no-show"
        danger
        pending={noShow.isPending}
        error={noShow.error ? callError(noShow.error).message : null}
        onConfirm={() => noShow.mutate({ id: r.id })}
      />

      <ConfirmDialog
        open={dialog === "late"}
        onOpenChange={(o) => setDialog(o ? "late" : null)}
        title="Grant a late check-out?"
        description={<LateCheckOutQuote planName={plan.name} quote={lateQuote.data} loading={lateQuote.isLoading} />}
        confirmLabel="Grant late check-out"
        pending={late.isPending || !lateQuote.data}
        error={late.error ? callError(late.error).message : lateQuote.error ? callError(lateQuote.error).message : null}
        onConfirm={() => late.mutate({ id: r.id })}
      />

      {due && dialog === "pay" ? (
        <PaymentDialog
          reservationId={r.id}
          balance={due}
          livemode={r.livemode}
          onDone={onDone}
          // Paid: back to the check-out, which now finds the folio settled.
          onPaid={() => (setPayDue(null), setDialog("checkout"))}
          open={dialog === "pay"}
          onOpenChange={(o) => (setDialog(o ? "pay" : null), o || setPayDue(null))}
        />
      ) : null}
    </div>
  );
}
