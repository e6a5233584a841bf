"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId } from "react";
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  FormProvider,
  get,
  type Resolver,
  type SubmitHandler,
  useForm,
  useFormContext,
  type UseFormProps,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from "react-hook-form";
import { z } from "zod";
import { callError } from "@/components/trpc/errors";
import { Alert, cx } from "./index";

// Zod 4 probes for eval (`Function("")`) before compiling fast parsers; the pages' policy forbids
// eval, so the probe is a reported violation. The interpreted parsers are fast enough for a form.
z.config({ jitless: true });

/**
 * A form over react-hook-form, validated by a zod schema (the same schema the server checks
 * where the shapes match): `useZodForm(schema, { defaultValues })`, then `<Form form onSubmit>`
 * with a `<FormField>` per field. Each field's control gets its id, `aria-invalid` and
 * `aria-describedby` pointing at its error (or hint), so a screen reader reads why it was refused.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  options: Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, "resolver"> & { defaultValues: DefaultValues<z.input<S>> },
): UseFormReturn<z.input<S>, unknown, z.output<S>> {
  return useForm<z.input<S>, unknown, z.output<S>>({
    mode: "onSubmit",
    reValidateMode: "onChange",
    ...options,
    resolver: zodResolver(schema as never) as unknown as Resolver<z.input<S>, unknown, z.output<S>>,
  });
}

type FormProps<In extends FieldValues, Out> = {
  form: UseFormReturn<In, unknown, Out>;
  onSubmit: SubmitHandler<Out>;
  children: ReactNode;
  className?: string;
  "aria-label"?: string;
};

/** The `<form>`: submits through the schema; the browser's own validation bubbles are off. */
export function Form<In extends FieldValues, Out>({ form, onSubmit, children, className, ...rest }: FormProps<In, Out>) {
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={form.handleSubmit(onSubmit)} className={className} aria-label={rest["aria-label"]}>
        {children}
      </form>
    </FormProvider>
  );
}

/** What a field hands its control: the registration plus id and the ARIA wiring to its message. */
export type ControlProps = UseFormRegisterReturn & { id: string; "aria-invalid"?: true; "aria-describedby"?: string };

type FieldProps<T extends FieldValues> = {
  name: FieldPath<T>;
  label: ReactNode;
  hint?: ReactNode;
  /** `valueAsNumber` and the like, passed to `register`. */
  options?: Parameters<UseFormReturn<T>["register"]>[1];
  children: (control: ControlProps) => ReactNode;
  className?: string;
};

/** A labelled field: the control `children` renders, with its error (or hint) underneath. */
export function FormField<T extends FieldValues>({ name, label, hint, options, children, className }: FieldProps<T>) {
  const { register, formState } = useFormContext<T>();
  const id = `${useId()}-${name.replace(/\./g, "-")}`;
  const error = (get(formState.errors, name) as { message?: string } | undefined)?.message;
  const messageId = `${id}-message`;
  const control: ControlProps = {
    ...register(name, options),
    id,
    ...(error ? { "aria-invalid": true as const } : {}),
    ...(error || hint ? { "aria-describedby": messageId } : {}),
  };
  return (
    <div className={cx("min-w-0 space-y-1", className)}>
      <label htmlFor={id} className="block text-xs font-medium text-stone-600">
        {label}
      </label>
      {children(control)}
      {error ? (
        <p id={messageId} role="alert" className="text-xs text-red-700" data-field-error={name}>
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A checkbox with its label beside it, registered like any field. */
export function FormCheckbox<T extends FieldValues>({ name, label, hint }: { name: FieldPath<T>; label: ReactNode; hint?: ReactNode }) {
  const { register } = useFormContext<T>();
  const id = `${useId()}-${name}`;
  return (
    <div className="flex items-start gap-2">
      <input type="checkbox" id={id} {...register(name)} aria-describedby={hint ? `${id}-hint` : undefined} className="mt-0.5 h-4 w-4 rounded border-stone-300 text-teal-700 focus:ring-teal-600" />
      <div>
        <label htmlFor={id} className="text-sm text-stone-800">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-stone-500">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The form's own error (a refusal that names no field of the form), announced when it appears. */
export function FormError() {
  const { formState } = useFormContext();
  const message = (formState.errors.root as Record<string, { message?: string }> | undefined)?.server?.message;
  return message ? <Alert>{message}</Alert> : null;
}

/**
 * Shows a failed call's error: on the field it names (`param`, renamed through `fields` where
 * the form's names differ from the API's), else above the form.
 */
export function showServerError<T extends FieldValues>(form: UseFormReturn<T, unknown, unknown>, error: unknown, fields: Record<string, FieldPath<T>> = {}) {
  const { message, param } = callError(error);
  const field = param ? (fields[param] ?? (get(form.getValues(), param) !== undefined ? (param as FieldPath<T>) : undefined)) : undefined;
  if (field) form.setError(field, { type: "server", message: fieldMessage(message) }, { shouldFocus: true });
  else form.setError("root.server", { type: "server", message });
}

/** "Invalid parameter 'name': Too small…" → the part after the colon, beside the field it names. */
const fieldMessage = (message: string) => message.replace(/^[^:]*'[^']*':\s*/, "");
