"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import type { SetupProperty } from "@/components/setup/room-types-view";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Input, PageHeader, Select } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormCheckbox, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { shownFormat, usePropertyFormat } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";
import { amountText, currencyDigits, parseMoney } from "@/lib/money";
import { taxKindWords, taxTargetWords, wordFor } from "@/lib/words";

type Tax = {
  id: string;
  name: string;
  kind: "percentage" | "per_night" | "per_person_per_night";
  percentage: number | null;
  amount: { amount: number; currency: string } | null;
  inclusive: boolean;
  applies_to: "room_nights" | "other_charges";
  active: boolean;
};

/** The form: a percentage typed as "7.5" or "7,5", an amount in the property's currency and format. */
const taxForm = (currency: string) =>
  z
    .object({
      name: z.string().trim().min(1, "Enter a name, such as VAT or City tax.").max(100, "At most 100 characters."),
      kind: z.enum(["percentage", "per_night", "per_person_per_night"]),
      percentage: z.string().trim(),
      amount: z.string().trim(),
      inclusive: z.enum(["inclusive", "exclusive"]),
      applies_to: z.enum(["room_nights", "other_charges"]),
      active: z.boolean(),
    })
    .superRefine((v, ctx) => {
      if (v.kind === "percentage") {
        const p = Number(v.percentage.replace(",", "."));
        if (!/^\d{1,3}([.,]\d{1,3})?$/.test(v.percentage) || !(p > 0 && p <= 100)) {
          ctx.addIssue({ code: "custom", path: ["percentage"], message: "A percentage above 0 and at most 100, such as 7.5." });
        }
      } else {
        const a = parseMoney(v.amount, currency, shownFormat().locale);
        if (a === null || a <= 0) ctx.addIssue({ code: "custom", path: ["amount"], message: `An amount such as ${(2.5).toFixed(currencyDigits(currency))}.` });
      }
    });
type TaxForm = z.input<ReturnType<typeof taxForm>>;

/** A rate as the property's country writes it: "7.5" in a US hotel, "7,5" in a Portuguese one. */
const percentText = (p: number, locale: string) => new Intl.NumberFormat(`${locale}-u-nu-latn`, { maximumFractionDigits: 3, useGrouping: false }).format(p);

/** The input of /v1/taxes from the form: percent as a number, an amount in minor units. */
function toInput(v: TaxForm, currency: string) {
  if (v.kind === "percentage") {
    return { name: v.name, percentage: Number(v.percentage.replace(",", ".")), inclusive: v.inclusive === "inclusive", applies_to: v.applies_to, active: v.active };
  }
  return { name: v.name, amount: parseMoney(v.amount, currency, shownFormat().locale)!, applies_to: "room_nights" as const, active: v.active };
}

/** The property's taxes and fees, in words: "7.5 %, included in the price", "$2.50 per guest per night". */
export function TaxesView({ property }: { property: SetupProperty }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const taxes = useQuery(trpc.setup.taxes.list.queryOptions({ property_id: property.id }));
  const [editing, setEditing] = useState<Tax | "new" | null>(null);
  const rate = (t: Tax) =>
    t.kind === "percentage"
      ? `${percentText(t.percentage ?? 0, fmt.locale)} %, ${t.inclusive ? "included in the price" : "added to the price"}`
      : `${fmt.money(t.amount!)} ${t.kind === "per_night" ? "per room night" : "per guest per night"}, its own line`;
  const columns: ColumnDef<Tax>[] = [
    { id: "name", header: "Tax", meta: { primary: true }, cell: ({ row }) => <span className="font-medium text-stone-900">{row.original.name}</span> },
    { id: "kind", header: "Kind", cell: ({ row }) => wordFor(taxKindWords, row.original.kind) },
    { id: "rate", header: "Rate", cell: ({ row }) => rate(row.original) },
    { id: "on", header: "On", cell: ({ row }) => wordFor(taxTargetWords, row.original.applies_to) },
    {
      id: "status",
      header: "Status",
      cell: ({ row }) => <span className="whitespace-nowrap">{row.original.active ? <Badge tone="teal">Applied</Badge> : <Badge>Stopped</Badge>}</span>,
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
      <PageHeader
        title="Taxes"
        description={`The taxes and fees ${property.name} charges. They apply to folio lines posted from now on; lines already posted keep theirs.`}
        actions={<Button onClick={() => setEditing("new")}>Add tax</Button>}
      />
      <DataTable
        label="Taxes"
        columns={columns}
        data={taxes.data}
        error={taxes.error ? callError(taxes.error).message : null}
        onRetry={() => taxes.refetch()}
        rowKey={(t) => t.id}
        rowProps={(t) => ({ "data-testid": `tax-${t.name}` })}
        empty={{
          title: "No taxes yet",
          children: "Add the VAT or sales tax on rooms and extras, and a city tax per guest and night if the town levies one.",
          action: <Button onClick={() => setEditing("new")}>Add tax</Button>,
        }}
      />
      <p className="mt-4 text-sm text-stone-600">
        Taxes are worked out on each folio line and rounded to the nearest {currencyDigits(property.currency) ? "cent" : "unit"} (halves up): a tax included in the price leaves the
        price as it is and shows the tax inside it; a tax added to the price is charged on top.
      </p>
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)} title={editing === "new" ? "Add a tax" : "Edit tax"}>
        {editing ? <TaxEditor key={editing === "new" ? "new" : editing.id} property={property} tax={editing === "new" ? null : editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
    </>
  );
}

function TaxEditor({ property, tax, onDone }: { property: SetupProperty; tax: Tax | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useZodForm(taxForm(property.currency), {
    defaultValues: {
      name: tax?.name ?? "",
      kind: tax?.kind ?? "percentage",
      percentage: tax?.percentage != null ? percentText(tax.percentage, shownFormat().locale) : "",
      amount: tax?.amount ? amountText(tax.amount, shownFormat().locale) : "",
      inclusive: tax?.inclusive ? "inclusive" : "exclusive",
      applies_to: tax?.applies_to ?? "room_nights",
      active: tax?.active ?? true,
    },
  });
  const kind = form.watch("kind");
  const saved = async (t: Tax) => {
    await queryClient.invalidateQueries(trpc.setup.taxes.list.queryFilter());
    toast.success(`${t.name} ${tax ? "saved" : "added"}.`);
    onDone();
  };
  const onError = (e: unknown) => showServerError(form, e);
  const create = useMutation(trpc.setup.taxes.create.mutationOptions({ onSuccess: saved, onError }));
  const update = useMutation(trpc.setup.taxes.update.mutationOptions({ onSuccess: saved, onError }));
  const pending = create.isPending || update.isPending;
  return (
    <Form
      form={form}
      aria-label="Tax"
      onSubmit={(v) => {
        const input = toInput(v, property.currency);
        if (tax) update.mutate({ id: tax.id, ...input });
        else {
          const { active: _active, ...fields } = input;
          create.mutate({ property_id: property.id, kind: v.kind, ...fields });
        }
      }}
    >
      <div className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField<TaxForm> name="name" label="Name">
            {(control) => <Input {...control} placeholder="VAT" />}
          </FormField>
          <FormField<TaxForm> name="kind" label="Kind" hint={tax ? "The kind of a tax cannot change; stop it and add another." : undefined}>
            {(control) => (
              <Select {...control} disabled={!!tax}>
                <option value="percentage">A percentage of the price (VAT, sales tax)</option>
                <option value="per_night">An amount per room night</option>
                <option value="per_person_per_night">An amount per guest per night (city tax)</option>
              </Select>
            )}
          </FormField>
        </div>
        {kind === "percentage" ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <FormField<TaxForm> name="percentage" label="Rate (%)">
              {(control) => <Input {...control} inputMode="decimal" placeholder="7.5" />}
            </FormField>
            <FormField<TaxForm> name="inclusive" label="Price">
              {(control) => (
                <Select {...control}>
                  <option value="exclusive">Added to the price</option>
                  <option value="inclusive">Included in the price</option>
                </Select>
              )}
            </FormField>
            <FormField<TaxForm> name="applies_to" label="On">
              {(control) => (
                <Select {...control}>
                  <option value="room_nights">Room nights</option>
                  <option value="other_charges">Other charges (extras, fees)</option>
                </Select>
              )}
            </FormField>
          </div>
        ) : (
          <FormField<TaxForm> name="amount" label={`Amount (${property.currency})`} hint="Posted as its own line beside each room night.">
            {(control) => <Input {...control} inputMode="decimal" placeholder={(2.5).toFixed(currencyDigits(property.currency))} />}
          </FormField>
        )}
        {tax ? <FormCheckbox<TaxForm> name="active" label="Applied" hint="A stopped tax is not charged on new lines; lines already posted keep it." /> : null}
        <FormError />
        <DialogActions label={tax ? "Save" : "Add tax"} pendingLabel="Saving…" pending={pending} />
      </div>
    </Form>
  );
}
