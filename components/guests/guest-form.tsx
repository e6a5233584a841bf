"use client";

import { useState, type FormEvent } from "react";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input } from "@/components/ui";

export type GuestFields = { first_name: string; last_name: string; email: string; phone: string };

const fields: { name: keyof GuestFields; label: string; type: string; autoComplete: string }[] = [
  { name: "first_name", label: "First name", type: "text", autoComplete: "off" },
  { name: "last_name", label: "Last name", type: "text", autoComplete: "off" },
  { name: "email", label: "E-mail", type: "email", autoComplete: "off" },
  { name: "phone", label: "Phone (optional)", type: "tel", autoComplete: "off" },
];

/** The API words field errors as "Invalid parameter 'email': …"; next to the field the name is implied. */
const fieldMessage = (message: string) => message.replace(/^Invalid parameter '[^']*': /, "");

/**
 * A guest's names, e-mail and phone. Errors come from the server as the API's error, and the
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
  const [values, setValues] = useState<GuestFields>({ first_name: "", last_name: "", email: "", phone: "", ...initial });
  const failure = error ? callError(error) : null;
  const fieldAtFault = fields.find((f) => f.name === failure?.param)?.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-label={label}>
      {failure && !fieldAtFault ? <Alert>{failure.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {fields.map((f) => (
          <Field key={f.name} label={f.label} htmlFor={`${idPrefix}-${f.name}`} error={fieldAtFault === f.name ? fieldMessage(failure!.message) : null}>
            <Input
              id={`${idPrefix}-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              value={values[f.name]}
              invalid={fieldAtFault === f.name}
              onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
            />
          </Field>
        ))}
      </div>
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
