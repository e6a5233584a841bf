"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { z } from "zod";
import { shownFormat } from "@/components/ui/property-format";
import { amountText, currencyDigits, parseMoney } from "@/lib/money";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Input, PageHeader, Select } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormCheckbox, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { EmptyState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { cancellationWords, mealPlanLabels, pricingWords } from "./format";
import type { SetupProperty } from "./room-types-view";
import { NeedsRoomTypes } from "./needs-property";
import { checkFees, feeDefaults, feeErrorFields, FeeFields, feeFormFields, feeKeys, FeesCell, feesInput, type PlanFees } from "./plan-fees";

type Plan = {
  id: string;
  code: string;
  name: string;
  room_type_ids: string[];
  refundable: boolean;
  cancellation_deadline_hours: number;
  meal_plan: string;
  derived_from: { rate_plan_id: string; adjustment_percent: number | null; adjustment_amount: number | null } | null;
  active: boolean;
} & PlanFees;
type RoomType = { id: string; name: string };

/** The plan form; amounts are typed in the property's currency ("15.00") and become minor units on the way out. */
const planForm = (currency: string) =>
  z
    .object({
      name: z.string().trim().min(1, "Enter a name, such as Best available rate.").max(100, "At most 100 characters."),
      code: z
        .string()
        .trim()
        .min(1, "Enter a short code, such as BAR.")
        .max(20, "At most 20 characters.")
        .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, - and _ only."),
      room_type_ids: z.array(z.string()).min(1, "Choose at least one room type."),
      pricing: z.enum(["own", "derived"]),
      parent_id: z.string(),
      direction: z.enum(["below", "above"]),
      kind: z.enum(["percent", "amount"]),
      value: z.string().trim(),
      refundable: z.enum(["yes", "no"]),
      deadline_hours: z.string().trim(),
      meal_plan: z.string(),
      active: z.boolean(),
      ...feeFormFields,
    })
    .superRefine((v, ctx) => {
      checkFees(v, currency, ctx);
      if (v.refundable === "yes" && !/^\d{1,4}$/.test(v.deadline_hours)) ctx.addIssue({ code: "custom", path: ["deadline_hours"], message: "Hours as a whole number, such as 24." });
      if (v.pricing !== "derived") return;
      if (!v.parent_id) ctx.addIssue({ code: "custom", path: ["parent_id"], message: "Choose the plan it follows." });
      if (v.kind === "percent" && !(/^\d{1,3}([.,]\d{1,2})?$/.test(v.value) && Number(v.value.replace(",", ".")) <= (v.direction === "below" ? 100 : 1000))) {
        ctx.addIssue({ code: "custom", path: ["value"], message: v.direction === "below" ? "A percentage from 0 to 100, such as 10." : "A percentage such as 10." });
      }
      if (v.kind === "amount" && parseMoney(v.value, currency, shownFormat().locale) === null) {
        ctx.addIssue({ code: "custom", path: ["value"], message: `An amount such as ${(15).toFixed(currencyDigits(currency))}.` });
      }
    });
type PlanForm = z.input<ReturnType<typeof planForm>>;

/** The form's values as the API's input: the derivation's sign and unit, hours, minor units. */
function toInput(v: PlanForm, currency: string) {
  const sign = v.direction === "below" ? -1 : 1;
  const derived_from =
    v.pricing === "derived"
      ? v.kind === "percent"
        ? { rate_plan_id: v.parent_id, adjustment_percent: sign * Number(v.value.replace(",", ".")) }
        : { rate_plan_id: v.parent_id, adjustment_amount: sign * parseMoney(v.value, currency, shownFormat().locale)! }
      : null;
  return {
    name: v.name,
    code: v.code,
    room_type_ids: v.room_type_ids,
    refundable: v.refundable === "yes",
    cancellation_deadline_hours: v.refundable === "yes" ? Number(v.deadline_hours) : 0,
    meal_plan: v.meal_plan as "room_only",
    active: v.active,
    derived_from,
    ...feesInput(v, currency),
  };
}

/** The property's rate plans: what each includes, its cancellation policy and how it is priced. */
export function RatePlansView({ property }: { property: SetupProperty }) {
  const trpc = useTRPC();
  const plans = useQuery(trpc.setup.ratePlans.list.queryOptions({ property_id: property.id }));
  const types = useQuery(trpc.setup.roomTypes.list.queryOptions({ property_id: property.id }));
  const [editing, setEditing] = useState<Plan | "new" | null>(null);
  const planName = (id: string) => plans.data?.find((p) => p.id === id)?.name ?? "another plan";
  const typeNames = (ids: string[]) => ids.map((id) => types.data?.find((t) => t.id === id)?.name ?? "another type").join(", ");
  const header = (
    <PageHeader
      title="Rate plans"
      description={`How ${property.name} sells its rooms: what each plan includes, its cancellation policy and its price.`}
      actions={types.data?.length ? <Button onClick={() => setEditing("new")}>Add rate plan</Button> : null}
    />
  );
  if (types.error) {
    return (
      <>
        {header}
        <EmptyState title="The room types could not be loaded">{callError(types.error).message}</EmptyState>
      </>
    );
  }
  if (!types.data) {
    return (
      <>
        {header}
        <LoadingState rows={5} label="Loading rate plans…" />
      </>
    );
  }
  if (!types.data.length) {
    return (
      <>
        {header}
        <NeedsRoomTypes>A rate plan prices some room types: add them first.</NeedsRoomTypes>
      </>
    );
  }
  const columns: ColumnDef<Plan>[] = [
    {
      id: "name",
      header: "Rate plan",
      meta: { primary: true },
      cell: ({ row }) => (
        <span className="font-medium text-stone-900">
          {row.original.name} <span className="font-normal text-stone-500">({row.original.code})</span>
        </span>
      ),
    },
    { id: "price", header: "Price", cell: ({ row }) => pricingWords(row.original, planName, property.currency) },
    { id: "cancellation", header: "Cancellation", cell: ({ row }) => cancellationWords(row.original) },
    { id: "fees", header: "Fees", cell: ({ row }) => <FeesCell plan={row.original} currency={property.currency} /> },
    { id: "meals", header: "Meals", cell: ({ row }) => mealPlanLabels[row.original.meal_plan] ?? "—" },
    { id: "types", header: "Room types", cell: ({ row }) => typeNames(row.original.room_type_ids) },
    {
      id: "status",
      header: "Status",
      cell: ({ row }) => <span className="whitespace-nowrap">{row.original.active ? <Badge tone="teal">On sale</Badge> : <Badge>Not on sale</Badge>}</span>,
    },
    {
      id: "actions",
      header: "",
      cell: ({ row }) => (
        <Button variant="secondary" onClick={() => setEditing(row.original)} aria-label={`Edit ${row.original.name}`}>
          Edit
        </Button>
      ),
    },
  ];
  return (
    <>
      {header}
      <DataTable
        label="Rate plans"
        columns={columns}
        data={plans.data}
        error={plans.error ? callError(plans.error).message : null}
        onRetry={() => plans.refetch()}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ "data-testid": `rate-plan-${p.code}` })}
        empty={{
          title: "No rate plans yet",
          children: "A rate plan says what a stay includes and how it may be cancelled; its nightly prices are then set on the Rates page.",
          action: <Button onClick={() => setEditing("new")}>Add rate plan</Button>,
        }}
      />
      {plans.data?.some((p) => !p.derived_from) ? (
        <p className="mt-4 text-sm text-stone-600">
          Nightly prices are set on the{" "}
          <Link href="/rates" className="font-medium text-teal-800 underline">
            Rates
          </Link>{" "}
          page; a plan that follows another moves with it.
        </p>
      ) : null}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={editing === "new" ? "Add a rate plan" : "Edit rate plan"} size="lg">
        {editing ? (
          <PlanEditor
            key={editing === "new" ? "new" : editing.id}
            property={property}
            plan={editing === "new" ? null : editing}
            plans={plans.data ?? []}
            types={types.data}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function PlanEditor({ property, plan, plans, types, onDone }: { property: SetupProperty; plan: Plan | null; plans: Plan[]; types: RoomType[]; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const d = plan?.derived_from;
  const adjustment = d ? (d.adjustment_percent ?? d.adjustment_amount ?? 0) : 0;
  const form = useZodForm(planForm(property.currency), {
    defaultValues: {
      name: plan?.name ?? "",
      code: plan?.code ?? "",
      room_type_ids: plan?.room_type_ids ?? types.map((t) => t.id),
      pricing: d ? "derived" : "own",
      parent_id: d?.rate_plan_id ?? "",
      direction: adjustment > 0 ? "above" : "below",
      kind: d?.adjustment_amount != null ? "amount" : "percent",
      value: d ? (d.adjustment_percent !== null ? String(Math.abs(adjustment)) : amountText({ amount: Math.abs(adjustment), currency: property.currency }, shownFormat().locale)) : "",
      refundable: plan && !plan.refundable ? "no" : "yes",
      deadline_hours: String(plan?.cancellation_deadline_hours ?? 24),
      meal_plan: plan?.meal_plan ?? "room_only",
      active: plan?.active ?? true,
      ...feeDefaults(plan, property.currency),
    },
  });
  const feeShapes = form.watch(feeKeys.map((key) => `${key}_shape` as const));
  const [pricing, refundable, kind, chosen] = form.watch(["pricing", "refundable", "kind", "room_type_ids"]);
  // A plan can follow one that is not itself derived, and never itself.
  const parents = plans.filter((p) => !p.derived_from && p.id !== plan?.id);
  const saved = async (p: Plan) => {
    await queryClient.invalidateQueries(trpc.setup.ratePlans.list.queryFilter());
    await queryClient.invalidateQueries(trpc.rates.setup.queryFilter());
    toast.success(`${p.name} ${plan ? "saved" : "added"}.`);
    onDone();
  };
  const fields = { "derived_from.rate_plan_id": "parent_id", "derived_from.adjustment_percent": "value", "derived_from.adjustment_amount": "value", cancellation_deadline_hours: "deadline_hours", ...feeErrorFields } as const;
  const onError = (e: unknown) => showServerError(form, e, fields);
  const create = useMutation(trpc.setup.ratePlans.create.mutationOptions({ onSuccess: saved, onError }));
  const update = useMutation(trpc.setup.ratePlans.update.mutationOptions({ onSuccess: saved, onError }));
  const pending = create.isPending || update.isPending;
  const typeError = form.formState.errors.room_type_ids?.message;

  return (
    <Form
      form={form}
      aria-label="Rate plan"
      onSubmit={(v) => {
        const { derived_from, ...input } = toInput(v, property.currency);
        if (plan) update.mutate({ id: plan.id, ...input, derived_from });
        else create.mutate({ property_id: property.id, ...input, ...(derived_from ? { derived_from } : {}) });
      }}
    >
      <div className="space-y-5">
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <FormField<PlanForm> name="name" label="Name">
            {(control) => <Input {...control} placeholder="Best available rate" />}
          </FormField>
          <FormField<PlanForm> name="code" label="Code">
            {(control) => <Input {...control} placeholder="BAR" className="uppercase" />}
          </FormField>
        </div>

        <fieldset aria-describedby={typeError ? "plan-types-error" : undefined}>
          <legend className="mb-1 text-xs font-medium text-stone-600">Room types it sells</legend>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {types.map((t) => (
              <label key={t.id} className="flex items-center gap-2 text-sm text-stone-800">
                <input
                  type="checkbox"
                  className="h-4 w-4 rounded border-stone-300 text-teal-700 focus:ring-teal-600"
                  checked={chosen.includes(t.id)}
                  aria-invalid={typeError ? true : undefined}
                  onChange={(e) =>
                    form.setValue("room_type_ids", e.target.checked ? [...chosen, t.id] : chosen.filter((id) => id !== t.id), { shouldValidate: form.formState.isSubmitted })
                  }
                />
                {t.name}
              </label>
            ))}
          </div>
          {typeError ? (
            <p id="plan-types-error" className="mt-1 text-xs text-red-700">
              {typeError}
            </p>
          ) : null}
        </fieldset>

        <div className="rounded-md border border-stone-200 p-3">
          <FormField<PlanForm> name="pricing" label="Price">
            {(control) => (
              <Select {...control}>
                <option value="own">Its own nightly rates (set on the Rates page)</option>
                <option value="derived" disabled={!parents.length}>
                  Follows another plan, by a percentage or an amount
                </option>
              </Select>
            )}
          </FormField>
          {pricing === "derived" ? (
            <div className="mt-3 grid gap-3 sm:grid-cols-4">
              <FormField<PlanForm> name="value" label={kind === "percent" ? "By (%)" : `By (${property.currency})`}>
                {(control) => <Input {...control} inputMode="decimal" placeholder={kind === "percent" ? "10" : (15).toFixed(currencyDigits(property.currency))} />}
              </FormField>
              <FormField<PlanForm> name="kind" label="Unit">
                {(control) => (
                  <Select {...control}>
                    <option value="percent">Percent</option>
                    <option value="amount">Amount per night</option>
                  </Select>
                )}
              </FormField>
              <FormField<PlanForm> name="direction" label="Direction">
                {(control) => (
                  <Select {...control}>
                    <option value="below">Below</option>
                    <option value="above">Above</option>
                  </Select>
                )}
              </FormField>
              <FormField<PlanForm> name="parent_id" label="The plan">
                {(control) => (
                  <Select {...control}>
                    <option value="">Choose…</option>
                    {parents.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
              <p className="text-xs text-stone-500 sm:col-span-4">
                Its nightly prices are the other plan&apos;s, adjusted and rounded to the cent, with the same restrictions; they change whenever that plan&apos;s do and cannot be set on
                their own.
              </p>
            </div>
          ) : null}
        </div>

        <div className="grid gap-4 sm:grid-cols-3">
          <FormField<PlanForm> name="refundable" label="Cancellation">
            {(control) => (
              <Select {...control}>
                <option value="yes">Refundable</option>
                <option value="no">Non-refundable</option>
              </Select>
            )}
          </FormField>
          {refundable === "yes" ? (
            <FormField<PlanForm> name="deadline_hours" label="Free until (hours before arrival)" hint="0: until the day of arrival.">
              {(control) => <Input {...control} inputMode="numeric" />}
            </FormField>
          ) : (
            <p className="self-end text-xs text-stone-500">Cancelled stays keep their charges.</p>
          )}
          <FormField<PlanForm> name="meal_plan" label="Meals">
            {(control) => (
              <Select {...control}>
                {Object.entries(mealPlanLabels).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        </div>
        <FeeFields currency={property.currency} shapesNow={feeShapes} />
        <FormCheckbox<PlanForm> name="active" label="On sale" hint="A plan not on sale is kept but not offered for new bookings." />
        <FormError />
        <DialogActions label={plan ? "Save" : "Add rate plan"} pendingLabel="Saving…" pending={pending} />
      </div>
    </Form>
  );
}
