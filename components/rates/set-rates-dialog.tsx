"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { addDays, daysBetween } from "@/lib/dates";
import { usePropertyFormat } from "@/components/ui/property-format";

import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Field, Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import type { Selection } from "./rate-grid";
import { plural } from "@/lib/words";

const weekdays = [
  { key: "mon", label: "Mon" },
  { key: "tue", label: "Tue" },
  { key: "wed", label: "Wed" },
  { key: "thu", label: "Thu" },
  { key: "fri", label: "Fri" },
  { key: "sat", label: "Sat" },
  { key: "sun", label: "Sun" },
] as const;
type Weekday = (typeof weekdays)[number]["key"];
type Toggle = "" | "on" | "off";
const flags = [
  { key: "stop_sell", label: "Stop-sell" },
  { key: "closed_to_arrival", label: "Closed to arrival" },
  { key: "closed_to_departure", label: "Closed to departure" },
] as const;

/** The API words field errors as "Invalid parameter 'x': …"; next to the field the name is implied. */
const fieldMessage = (message: string) => message.replace(/^Invalid parameter '[^']*': /, "");

/**
 * Sets amount and restrictions for a range of nights, some weekdays, and one or more room types
 * of a plan, in one call. Empty fields leave the nights as they are.
 */
export function SetRatesDialog({
  open,
  onOpenChange,
  plan,
  roomTypes,
  currency,
  initial,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  plan: { id: string; code: string };
  roomTypes: { id: string; code: string; name: string }[];
  currency: string;
  initial: Selection;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const [types, setTypes] = useState<string[]>(initial.roomTypeIds);
  const [first, setFirst] = useState(initial.from);
  const [last, setLast] = useState(addDays(initial.to, -1));
  const [days, setDays] = useState<Weekday[]>(weekdays.map((w) => w.key));
  const [amount, setAmount] = useState("");
  const [minStay, setMinStay] = useState("");
  const [toggles, setToggles] = useState<Record<(typeof flags)[number]["key"], Toggle>>({
    stop_sell: "",
    closed_to_arrival: "",
    closed_to_departure: "",
  });
  const [localError, setLocalError] = useState<{ param: string; message: string } | null>(null);

  const set = useMutation(
    trpc.rates.set.mutationOptions({
      onSuccess: async (result) => {
        const nights = new Set(result.data.map((n) => n.date)).size;
        toast.success(
          `Rates updated: ${plan.code}, ${plural(types.length, "room type")}, ${plural(nights, "night")} in range.`,
        );
        await Promise.all([
          queryClient.invalidateQueries(trpc.rates.calendar.queryFilter()),
          queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
        ]);
        onDone();
      },
    }),
  );

  const serverError = set.error ? callError(set.error) : null;
  const failure = localError ?? (serverError ? { param: serverError.param ?? "", message: serverError.message } : null);
  const paramOf = (name: string) =>
    failure && (failure.param === name || failure.param.startsWith(`${name}.`)) ? fieldMessage(failure.message) : null;
  const fieldParams = ["room_type_ids", "from", "to", "days_of_week", "amount", "min_stay", ...flags.map((f) => f.key)];
  const general = failure && !fieldParams.some((p) => paramOf(p)) ? failure.message : null;
  const nights = first && last ? daysBetween(first, last) + 1 : 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocalError(null);
    set.reset();
    const cents = amount.trim() ? fmt.parse(amount, currency) : undefined;
    if (cents === null) return setLocalError({ param: "amount", message: `Enter an amount such as ${fmt.sample(currency)}.` });
    const stay = minStay.trim() ? Number(minStay) : undefined;
    if (stay !== undefined && (!Number.isInteger(stay) || stay < 1))
      return setLocalError({ param: "min_stay", message: "A whole number of nights, 1 or more." });
    if (!types.length) return setLocalError({ param: "room_type_ids", message: "Choose at least one room type." });
    if (!days.length) return setLocalError({ param: "days_of_week", message: "Choose at least one day of the week." });
    if (!first || !last) return setLocalError({ param: "from", message: "Choose the first and the last night." });
    if (last < first) return setLocalError({ param: "to", message: "The last night must not be before the first." });
    const flagValues = Object.fromEntries(flags.filter((f) => toggles[f.key]).map((f) => [f.key, toggles[f.key] === "on"]));
    if (cents === undefined && stay === undefined && !Object.keys(flagValues).length) {
      return setLocalError({ param: "", message: "Nothing to change: enter an amount, a minimum stay or a restriction." });
    }
    set.mutate({
      rate_plan_id: plan.id,
      room_type_ids: types,
      from: first,
      to: addDays(last, 1),
      ...(cents !== undefined ? { amount: cents } : {}),
      ...(stay !== undefined ? { min_stay: stay } : {}),
      ...flagValues,
      ...(days.length < 7 ? { days_of_week: days } : {}),
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Set rates · ${plan.code}`}
      description="Fields left empty keep each night's current value."
      size="lg"
    >
      <form onSubmit={submit} noValidate aria-label="Set rates" className="space-y-5">
        {general ? <Alert>{general}</Alert> : null}
        <fieldset>
          <legend className="mb-1.5 text-xs font-medium text-stone-600">Room types</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {roomTypes.map((t) => (
              <label key={t.id} className="flex items-center gap-2 text-sm text-stone-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-teal-700"
                  checked={types.includes(t.id)}
                  onChange={(e) => setTypes((list) => (e.target.checked ? [...list, t.id] : list.filter((id) => id !== t.id)))}
                />
                {t.code} <span className="text-stone-500">{t.name}</span>
              </label>
            ))}
          </div>
          {paramOf("room_type_ids") ? (
            <p className="mt-1 text-xs text-red-700" role="alert" data-field-error="rates-room-types">
              {paramOf("room_type_ids")}
            </p>
          ) : null}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="First night" htmlFor="rates-from" error={paramOf("from")}>
            <Input id="rates-from" type="date" value={first} invalid={!!paramOf("from")} onChange={(e) => setFirst(e.target.value)} />
          </Field>
          <Field
            label="Last night"
            htmlFor="rates-last"
            error={paramOf("to")}
            hint={nights > 0 ? plural(nights, "night") : undefined}
          >
            <Input id="rates-last" type="date" value={last} invalid={!!paramOf("to")} onChange={(e) => setLast(e.target.value)} />
          </Field>
        </div>

        <fieldset>
          <legend className="mb-1.5 text-xs font-medium text-stone-600">Days of the week</legend>
          <div className="flex flex-wrap gap-1.5">
            {weekdays.map((w) => {
              const on = days.includes(w.key);
              return (
                <label
                  key={w.key}
                  className={`flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-600 ${on ? "border-teal-600 bg-teal-50 text-teal-900" : "border-stone-300 text-stone-500"}`}
                >
                  <input
                    type="checkbox"
                    className="sr-only"
                    checked={on}
                    onChange={(e) => setDays((list) => (e.target.checked ? [...list, w.key] : list.filter((d) => d !== w.key)))}
                  />
                  {w.label}
                </label>
              );
            })}
          </div>
          {paramOf("days_of_week") ? (
            <p className="mt-1 text-xs text-red-700" role="alert">
              {paramOf("days_of_week")}
            </p>
          ) : null}
        </fieldset>

        <div className="grid gap-4 sm:grid-cols-3">
          <Field label={`Amount per night (${currency})`} htmlFor="rates-amount" error={paramOf("amount")} hint="Empty: keep">
            <Input
              id="rates-amount"
              inputMode="decimal"
              placeholder="unchanged"
              value={amount}
              invalid={!!paramOf("amount")}
              onChange={(e) => setAmount(e.target.value)}
            />
          </Field>
          <Field label="Minimum stay (nights)" htmlFor="rates-min-stay" error={paramOf("min_stay")} hint="Empty: keep">
            <Input
              id="rates-min-stay"
              type="number"
              min={1}
              max={365}
              placeholder="unchanged"
              value={minStay}
              invalid={!!paramOf("min_stay")}
              onChange={(e) => setMinStay(e.target.value)}
            />
          </Field>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {flags.map((f) => (
            <Field key={f.key} label={f.label} htmlFor={`rates-${f.key}`} error={paramOf(f.key)}>
              <Select id={`rates-${f.key}`} value={toggles[f.key]} onChange={(e) => setToggles((t) => ({ ...t, [f.key]: e.target.value as Toggle }))}>
                <option value="">Leave as is</option>
                <option value="on">On</option>
                <option value="off">Off</option>
              </Select>
            </Field>
          ))}
        </div>

        <DialogActions label="Apply" pendingLabel="Applying…" pending={set.isPending} />
      </form>
    </Dialog>
  );
}
