"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { addDays, daysBetween } from "@/lib/dates";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { useTRPC } from "@/components/trpc/client";
import { Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, FormFieldset, moneyField, showServerError, useZodForm } from "@/components/ui/form";
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
const flags = [
  { key: "stop_sell", label: "Stop-sell" },
  { key: "closed_to_arrival", label: "Closed to arrival" },
  { key: "closed_to_departure", label: "Closed to departure" },
] as const;

const toggle = z.enum(["", "on", "off"]);
/** The form, named as the API's input; `to` is the last night here (the API's is the morning after). */
const ratesForm = (f: Formatters, currency: string) =>
  z
    .object({
      room_type_ids: z.array(z.string()).min(1, "Choose at least one room type."),
      from: z.string().min(1, "Choose the first and the last night."),
      to: z.string().min(1, "Choose the first and the last night."),
      days_of_week: z.array(z.enum(weekdays.map((w) => w.key) as [Weekday, ...Weekday[]])).min(1, "Choose at least one day of the week."),
      amount: moneyField(f, currency, `Enter an amount such as ${f.sample(currency)}.`, undefined, true),
      min_stay: z
        .string()
        .trim()
        .transform((text, ctx) => {
          if (!text) return undefined;
          const nights = Number(text);
          if (Number.isInteger(nights) && nights >= 1) return nights;
          ctx.addIssue({ code: "custom", message: "A whole number of nights, 1 or more." });
          return z.NEVER;
        }),
      stop_sell: toggle,
      closed_to_arrival: toggle,
      closed_to_departure: toggle,
    })
    .refine((v) => !v.from || !v.to || v.to >= v.from, { path: ["to"], message: "The last night must not be before the first." });
type RatesForm = z.input<ReturnType<typeof ratesForm>>;

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
  const form = useZodForm(ratesForm(fmt, currency), {
    defaultValues: {
      room_type_ids: initial.roomTypeIds,
      from: initial.from,
      to: addDays(initial.to, -1),
      days_of_week: weekdays.map((w) => w.key),
      amount: "",
      min_stay: "",
      stop_sell: "",
      closed_to_arrival: "",
      closed_to_departure: "",
    },
  });
  const [first, last, days] = form.watch(["from", "to", "days_of_week"]);
  const nights = first && last ? daysBetween(first, last) + 1 : 0;

  const set = useMutation(
    trpc.rates.set.mutationOptions({
      onSuccess: async (result, input) => {
        const nights = new Set(result.data.map((n) => n.date)).size;
        toast.success(`Rates updated: ${plan.code}, ${plural(input.room_type_ids.length, "room type")}, ${plural(nights, "night")} in range.`);
        await Promise.all([queryClient.invalidateQueries(trpc.rates.calendar.queryFilter()), queryClient.invalidateQueries(trpc.audit.list.queryFilter())]);
        onDone();
      },
      onError: (e) => showServerError<RatesForm>(form, e),
    }),
  );

  const submit = (v: z.output<ReturnType<typeof ratesForm>>) => {
    const flagValues = Object.fromEntries(flags.filter((f) => v[f.key]).map((f) => [f.key, v[f.key] === "on"]));
    if (v.amount === undefined && v.min_stay === undefined && !Object.keys(flagValues).length) {
      return form.setError("root.server", { message: "Nothing to change: enter an amount, a minimum stay or a restriction." });
    }
    set.mutate({
      rate_plan_id: plan.id,
      room_type_ids: v.room_type_ids,
      from: v.from,
      to: addDays(v.to, 1),
      ...(v.amount !== undefined ? { amount: v.amount } : {}),
      ...(v.min_stay !== undefined ? { min_stay: v.min_stay } : {}),
      ...flagValues,
      ...(v.days_of_week.length < 7 ? { days_of_week: v.days_of_week } : {}),
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Set rates · ${plan.code}`} description="Fields left empty keep each night's current value." size="lg">
      <Form form={form} onSubmit={submit} aria-label="Set rates" className="space-y-5">
        <FormError />
        <FormFieldset<RatesForm> name="room_type_ids" legend="Room types">
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {roomTypes.map((t) => (
              <label key={t.id} className="flex items-center gap-2 text-sm text-stone-800">
                <input type="checkbox" className="h-4 w-4 accent-teal-700" value={t.id} {...form.register("room_type_ids")} />
                {t.code} <span className="text-stone-500">{t.name}</span>
              </label>
            ))}
          </div>
        </FormFieldset>

        <div className="grid gap-4 sm:grid-cols-3">
          <FormField<RatesForm> name="from" label="First night">
            {(control) => <Input {...control} type="date" />}
          </FormField>
          <FormField<RatesForm> name="to" label="Last night" hint={nights > 0 ? plural(nights, "night") : undefined}>
            {(control) => <Input {...control} type="date" />}
          </FormField>
        </div>

        <FormFieldset<RatesForm> name="days_of_week" legend="Days of the week">
          <div className="flex flex-wrap gap-1.5">
            {weekdays.map((w) => (
              <label
                key={w.key}
                className={`flex cursor-pointer items-center gap-1.5 rounded-md border px-2 py-1 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-600 ${days.includes(w.key) ? "border-teal-600 bg-teal-50 text-teal-900" : "border-stone-300 text-stone-500"}`}
              >
                <input type="checkbox" className="sr-only" value={w.key} {...form.register("days_of_week")} />
                {w.label}
              </label>
            ))}
          </div>
        </FormFieldset>

        <div className="grid gap-4 sm:grid-cols-3">
          <FormField<RatesForm> name="amount" label={`Amount per night (${currency})`} hint="Empty: keep">
            {(control) => <Input {...control} inputMode="decimal" placeholder="unchanged" />}
          </FormField>
          <FormField<RatesForm> name="min_stay" label="Minimum stay (nights)" hint="Empty: keep">
            {(control) => <Input {...control} type="number" min={1} max={365} placeholder="unchanged" />}
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {flags.map((f) => (
            <FormField<RatesForm> key={f.key} name={f.key} label={f.label}>
              {(control) => (
                <Select {...control}>
                  <option value="">Leave as is</option>
                  <option value="on">On</option>
                  <option value="off">Off</option>
                </Select>
              )}
            </FormField>
          ))}
        </div>

        <DialogActions label="Apply" pendingLabel="Applying…" pending={set.isPending} />
      </Form>
    </Dialog>
  );
}
