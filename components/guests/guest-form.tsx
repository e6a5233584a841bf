"use client";

import { z } from "zod";
import { Button, Input } from "@/components/ui";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";

const addressLines = ["line1", "line2", "postal_code", "city", "region", "country"] as const;
type AddressLine = (typeof addressLines)[number];
export type GuestAddress = Partial<Record<AddressLine, string>>;

// Every field as typed; the server checks them (its refusal is shown at the field it names).
const guestForm = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.object(Object.fromEntries(addressLines.map((k) => [k, z.string()])) as Record<AddressLine, z.ZodString>),
});
export type GuestFields = z.output<typeof guestForm>;

type FieldSpec = { name: "first_name" | "last_name" | "email" | "phone" | `address.${AddressLine}`; label: string; type: string };
const fields: FieldSpec[] = [
  { name: "first_name", label: "First name", type: "text" },
  { name: "last_name", label: "Last name", type: "text" },
  { name: "email", label: "E-mail", type: "email" },
  { name: "phone", label: "Phone (optional)", type: "tel" },
];
const addressFields: FieldSpec[] = [
  { name: "address.line1", label: "Street and number", type: "text" },
  { name: "address.line2", label: "Address line 2", type: "text" },
  { name: "address.postal_code", label: "Postal code", type: "text" },
  { name: "address.city", label: "City", type: "text" },
  { name: "address.region", label: "Region or state", type: "text" },
  { name: "address.country", label: "Country code (e.g. PT)", type: "text" },
];

/** The form's address fields from a guest's address. */
export const addressFieldsOf = (address: GuestAddress | null | undefined) => Object.fromEntries(addressLines.map((k) => [k, address?.[k] ?? ""])) as Record<AddressLine, string>;

/** The address the form's fields give: its lines filled in, or null when none is. */
export function addressOf(values: GuestFields): GuestAddress | null {
  const lines = Object.fromEntries(addressLines.flatMap((k) => (values.address[k].trim() ? [[k, values.address[k].trim()]] : [])));
  return Object.keys(lines).length ? lines : null;
}

/**
 * A guest's names, e-mail, phone and postal address. `onSubmit` makes the call; its refusal is
 * shown at the field its `param` names, else above the form.
 */
export function GuestForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  label,
}: {
  initial?: Partial<GuestFields>;
  submitLabel: string;
  onSubmit(values: GuestFields): Promise<unknown>;
  onCancel?(): void;
  /** The form's accessible name. */
  label: string;
}) {
  const form = useZodForm(guestForm, { defaultValues: { first_name: "", last_name: "", email: "", phone: "", address: addressFieldsOf(null), ...initial } });
  const input = (f: FieldSpec) => (
    <FormField<GuestFields> key={f.name} name={f.name} label={f.label}>
      {(control) => <Input {...control} type={f.type} autoComplete="off" />}
    </FormField>
  );
  return (
    <Form form={form} className="space-y-4" aria-label={label} onSubmit={(values) => onSubmit(values).catch((e: unknown) => showServerError(form, e))}>
      <FormError />
      <div className="grid gap-4 sm:grid-cols-2">{fields.map(input)}</div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-stone-700">Postal address (optional, printed on invoices)</legend>
        <div className="grid gap-4 sm:grid-cols-2">{addressFields.map(input)}</div>
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Saving…" : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
