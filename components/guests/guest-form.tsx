"use client";

import { useState, type FormEvent } from "react";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input } from "@/components/ui";

const addressLines = ["line1", "line2", "postal_code", "city", "region", "country"] as const;
type AddressLine = (typeof addressLines)[number];
export type GuestAddress = Partial<Record<AddressLine, string>>;
export type GuestFields = { first_name: string; last_name: string; email: string; phone: string } & { [K in AddressLine as `address.${K}`]: string };

type FieldSpec = { name: keyof GuestFields; label: string; type: string; autoComplete: string };
const fields: FieldSpec[] = [
  { name: "first_name", label: "First name", type: "text", autoComplete: "off" },
  { name: "last_name", label: "Last name", type: "text", autoComplete: "off" },
  { name: "email", label: "E-mail", type: "email", autoComplete: "off" },
  { name: "phone", label: "Phone (optional)", type: "tel", autoComplete: "off" },
];
const addressFields: FieldSpec[] = [
  { name: "address.line1", label: "Street and number", type: "text", autoComplete: "off" },
  { name: "address.line2", label: "Address line 2", type: "text", autoComplete: "off" },
  { name: "address.postal_code", label: "Postal code", type: "text", autoComplete: "off" },
  { name: "address.city", label: "City", type: "text", autoComplete: "off" },
  { name: "address.region", label: "Region or state", type: "text", autoComplete: "off" },
  { name: "address.country", label: "Country code (e.g. PT)", type: "text", autoComplete: "off" },
];
const emptyAddress = Object.fromEntries(addressLines.map((k) => [`address.${k}`, ""])) as Pick<GuestFields, `address.${AddressLine}`>;

/** The form's address fields from a guest's address. */
export const addressFieldsOf = (address: GuestAddress | null | undefined) =>
  Object.fromEntries(addressLines.map((k) => [`address.${k}`, address?.[k] ?? ""])) as Pick<GuestFields, `address.${AddressLine}`>;

/** The address the form's fields give: its lines filled in, or null when none is. */
export function addressOf(values: GuestFields): GuestAddress | null {
  const lines = Object.fromEntries(addressLines.flatMap((k) => (values[`address.${k}`].trim() ? [[k, values[`address.${k}`].trim()]] : [])));
  return Object.keys(lines).length ? lines : null;
}

/** The API words field errors as "Invalid parameter 'email': …"; next to the field the name is implied. */
const fieldMessage = (message: string) => message.replace(/^Invalid parameter '[^']*': /, "");

/**
 * A guest's names, e-mail, phone and postal address. Errors come from the server as the API's error, and the
 * one whose `param` names a field is shown under that field.
 */
export function GuestForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
  idPrefix,
  label,
}: {
  initial?: Partial<GuestFields>;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit(values: GuestFields): void;
  onCancel?(): void;
  idPrefix: string;
  /** The form's accessible name. */
  label: string;
}) {
  const [values, setValues] = useState<GuestFields>({ first_name: "", last_name: "", email: "", phone: "", ...emptyAddress, ...initial });
  const failure = error ? callError(error) : null;
  const fieldAtFault = [...fields, ...addressFields].find((f) => f.name === failure?.param)?.name;
  const input = (f: FieldSpec) => (
    <Field key={f.name} label={f.label} htmlFor={`${idPrefix}-${f.name.replace(".", "-")}`} error={fieldAtFault === f.name ? fieldMessage(failure!.message) : null}>
      <Input
        id={`${idPrefix}-${f.name.replace(".", "-")}`}
        name={f.name}
        type={f.type}
        autoComplete={f.autoComplete}
        value={values[f.name]}
        invalid={fieldAtFault === f.name}
        onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
      />
    </Field>
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={label}>
      {failure && !fieldAtFault ? <Alert>{failure.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">{fields.map(input)}</div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-stone-700">Postal address (optional, printed on invoices)</legend>
        <div className="grid gap-4 sm:grid-cols-2">{addressFields.map(input)}</div>
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
