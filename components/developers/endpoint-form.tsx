"use client";

import { z } from "zod";
import { Button, Input, Textarea } from "@/components/ui";
import { DialogClose } from "@/components/ui/dialog";
import { Form, FormError, FormField, FormFieldset, showServerError, useZodForm } from "@/components/ui/form";
import { eventGroups } from "./common";

export type EndpointFields = { url: string; description: string; enabled_events: string[] };

// `all`: every event, including types added later ("*"); else the types ticked.
const endpointForm = z
  .object({ url: z.string().trim(), description: z.string().trim(), all: z.boolean(), enabled_events: z.array(z.string()) })
  .refine((v) => v.all || v.enabled_events.length > 0, { path: ["enabled_events"], message: "Choose at least one event type, or all events." });
type EndpointForm = z.input<typeof endpointForm>;

/**
 * URL, description and the event selector (all events, or types grouped by resource). The
 * URL is checked by the server with the API's own rules; `onSubmit` makes the call, and its
 * refusal shows under the field it names.
 */
export function EndpointForm({ initial, submitLabel, onSubmit }: { initial?: EndpointFields; submitLabel: string; onSubmit: (values: EndpointFields) => Promise<unknown> }) {
  const form = useZodForm(endpointForm, {
    defaultValues: {
      url: initial?.url ?? "",
      description: initial?.description ?? "",
      all: initial ? initial.enabled_events.includes("*") : false,
      enabled_events: initial?.enabled_events.filter((e) => e !== "*") ?? [],
    },
  });
  const [all, selected] = form.watch(["all", "enabled_events"]);
  const toggle = (types: string[], on: boolean) =>
    form.setValue("enabled_events", on ? [...new Set([...selected, ...types])] : selected.filter((t) => !types.includes(t)), { shouldValidate: form.formState.isSubmitted });
  const submit = (v: z.output<typeof endpointForm>) =>
    onSubmit({ url: v.url, description: v.description, enabled_events: v.all ? ["*"] : v.enabled_events }).catch((e: unknown) =>
      showServerError<EndpointForm>(form, e, { enabled_events: "enabled_events" }),
    );

  return (
    <Form form={form} onSubmit={submit} aria-label="Webhook endpoint" className="space-y-4">
      <FormField<EndpointForm> name="url" label="Endpoint URL" hint="https://… Public addresses only in production; no credentials in the URL.">
        {(control) => <Input {...control} type="url" inputMode="url" required placeholder="https://example.com/innkeep/webhooks" />}
      </FormField>
      <FormField<EndpointForm> name="description" label="Description (optional)">
        {(control) => <Textarea {...control} rows={2} maxLength={500} />}
      </FormField>
      <FormFieldset<EndpointForm> name="enabled_events" className="space-y-2" legend="Events to send" legendClassName="text-xs font-medium text-stone-600">
        <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
          <input type="checkbox" className="h-4 w-4 accent-teal-700" {...form.register("all")} />
          All events (including types added later)
        </label>
        {!all ? (
          <div className="grid gap-3 sm:grid-cols-2">
            {eventGroups.map((group) => (
              <fieldset key={group.resource} className="rounded-md border border-stone-200 p-2.5">
                <legend className="px-1">
                  <label className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-stone-600">
                    <input
                      type="checkbox"
                      className="h-3.5 w-3.5 accent-teal-700"
                      checked={group.types.every((t) => selected.includes(t))}
                      onChange={(e) => toggle(group.types, e.target.checked)}
                      aria-label={`All ${group.resource.toLowerCase()} events`}
                    />
                    {group.resource}
                  </label>
                </legend>
                <div className="space-y-1">
                  {group.types.map((type) => (
                    <label key={type} className="flex items-center gap-2 font-mono text-xs text-stone-800">
                      <input type="checkbox" className="h-3.5 w-3.5 accent-teal-700" value={type} {...form.register("enabled_events")} />
                      {type}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
          </div>
        ) : null}
      </FormFieldset>
      <FormError />
      <div className="flex flex-wrap justify-end gap-2">
        <DialogClose asChild>
          <Button type="button" variant="secondary">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Saving…" : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
