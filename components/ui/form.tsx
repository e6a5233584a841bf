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
import type { Formatters } from "./property-format";

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

/**
 * The form around fields that sit outside its `<form>` element (a page whose first fields, above
 * the form, choose what it offers), so their `FormField`s find it; the `<Form>` goes inside.
 */
export function FormScope<In extends FieldValues, Out>({ form, children }: { form: UseFormReturn<In, unknown, Out>; children: ReactNode }) {
  return <FormProvider {...form}>{children}</FormProvider>;
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
 * A group of controls under one name (checkboxes, radios), in a fieldset: its legend, the controls
 * (registered by the caller, e.g. `{...form.register("scopes")}` on each checkbox), and its error
 * (or hint) underneath, which the fieldset's `aria-describedby` names.
 */
export function FormFieldset<T extends FieldValues>({
  name,
  legend,
  hint,
  children,
  className,
  legendClassName = "mb-1.5 text-xs font-medium text-stone-600",
}: {
  name: FieldPath<T>;
  legend: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
  legendClassName?: string;
}) {
  const { formState } = useFormContext<T>();
  const messageId = `${useId()}-${name.replace(/\./g, "-")}-message`;
  const error = (get(formState.errors, name) as { message?: string } | undefined)?.message;
  return (
    <fieldset className={className} aria-describedby={error || hint ? messageId : undefined}>
      <legend className={legendClassName}>{legend}</legend>
      {children}
      {error ? (
        <p id={messageId} role="alert" className="mt-1 text-xs text-red-700" data-field-error={name}>
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1 text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * A money field: what was typed, in the property's number format, out as minor units (lib/money's
 * parseMoney through `f.parse`, the one parser); refused with `message` when it is not an amount
 * or `accept` refuses it. `optional`: empty is undefined (a field left empty keeps a value).
 */
export function moneyField(f: Pick<Formatters, "parse">, currency: string, message: string, accept?: (minor: number) => boolean): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>>;
export function moneyField(f: Pick<Formatters, "parse">, currency: string, message: string, accept: ((minor: number) => boolean) | undefined, optional: true): z.ZodPipe<z.ZodString, z.ZodTransform<number | undefined, string>>;
export function moneyField(f: Pick<Formatters, "parse">, currency: string, message: string, accept: (minor: number) => boolean = () => true, optional = false) {
  return z.string().transform((text, ctx) => {
    if (optional && !text.trim()) return undefined;
    const minor = f.parse(text, currency);
    if (minor === null || !accept(minor)) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return minor;
  });
}

/** How a form words a refusal: `field` is the form's field it is shown at, null above the form. */
export type ErrorWords = (message: string, at: { code: string | null; field: string | null }) => string;

/**
 * Shows a failed call's error: on the field it names (`param`, renamed through `fields` where the
 * form's names differ from the API's; else the field on screen it names or sits in, so
 * `allergies.2` is shown at `allergies`), or above the form when no field on screen is named.
 * `words` rewords the message where the form says it otherwise.
 */
export function showServerError<T extends FieldValues>(form: UseFormReturn<T, unknown, unknown>, error: unknown, fields: Record<string, FieldPath<T>> = {}, words?: ErrorWords) {
  const { message, param, code } = callError(error);
  const field = param ? fieldAt(form, param, fields) : undefined;
  if (field) form.setError(field, { type: "server", message: words ? words(fieldMessage(message), { code, field }) : fieldMessage(message) }, { shouldFocus: true });
  else form.setError("root.server", { type: "server", message: words ? words(message, { code, field: null }) : message });
}

/** The field a parameter names: renamed, or the longest of `a.b.c`, `a.b`, `a` that is a field on screen. */
function fieldAt<T extends FieldValues>(form: UseFormReturn<T, unknown, unknown>, param: string, fields: Record<string, FieldPath<T>>): FieldPath<T> | undefined {
  const parts = param.split(".");
  for (let n = parts.length; n > 0; n--) {
    const name = parts.slice(0, n).join(".");
    if (fields[name]) return fields[name];
    if ((get(form.control._fields, name) as { _f?: { mount?: boolean } } | undefined)?._f?.mount) return name as FieldPath<T>;
  }
  return undefined;
}

/**
 * "Invalid parameter 'name': Too small…" → the part after the colon, beside the field it names;
 * the first fault is shown at its field, and once it is put right, the next one is.
 */
const fieldMessage = (message: string) =>
  message.replace(/^[^:]*'[^']*':\s*/, "").replace(/ (?:One more parameter is|\d+ more parameters are) at fault: see `errors`\.$/, "");
