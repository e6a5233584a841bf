"use client";

import { useState, type FormEvent } from "react";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Textarea } from "@/components/ui";
import { DialogClose } from "@/components/ui/dialog";
import { eventGroups } from "./common";

export type EndpointFields = { url: string; description: string; enabled_events: string[] };

/**
 * URL, description and the event selector (all events, or types grouped by resource). The
 * URL is checked by the server with the API's own rules; its answer shows under the field.
 */
export function EndpointForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: EndpointFields;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: EndpointFields) => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [all, setAll] = useState(initial ? initial.enabled_events.includes("*") : false);
  const [selected, setSelected] = useState<Set<string>>(new Set(initial?.enabled_events.filter((e) => e !== "*") ?? []));
  const [missing, setMissing] = useState(false);
  const failure = error ? callError(error) : null;
  const fieldError = (param: string) => (failure?.param === param || failure?.param?.startsWith(`${param}.`) ? failure.message : null);

  const toggle = (types: string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const t of types) {
        if (on) next.add(t);
        else next.delete(t);
      }
      return next;
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const enabled = all ? ["*"] : [...selected];
    if (!enabled.length) return setMissing(true);
    setMissing(false);
    onSubmit({ url: url.trim(), description: description.trim(), enabled_events: enabled });
  };

  return (
    <form onSubmit={submit} aria-label="Webhook endpoint" className="space-y-4">
      <Field label="Endpoint URL" htmlFor="endpoint-url" error={fieldError("url")} hint="https://… Public addresses only in production; no credentials in the URL.">
        <Input id="endpoint-url" type="url" inputMode="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/innkeep/webhooks" invalid={!!fieldError("url")} />
      </Field>
      <Field label="Description (optional)" htmlFor="endpoint-description" error={fieldError("description")}>
        <Textarea id="endpoint-description" rows={2} maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-xs font-medium text-stone-600">Events to send</legend>
        <label className="flex items-center gap-2 text-sm font-medium text-stone-800">
          <input type="checkbox" className="h-4 w-4 accent-teal-700" checked={all} onChange={(e) => setAll(e.target.checked)} />
          All events (including types added later)
        </label>
        {!all ? (
          <div className="grid gap-3 sm:grid-cols-2">
            {eventGroups.map((group) => {
              const every = group.types.every((t) => selected.has(t));
              return (
                <fieldset key={group.resource} className="rounded-md border border-stone-200 p-2.5">
                  <legend className="px-1">
                    <label className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-stone-600">
                      <input type="checkbox" className="h-3.5 w-3.5 accent-teal-700" checked={every} onChange={(e) => toggle(group.types, e.target.checked)} aria-label={`All ${group.resource.toLowerCase()} events`} />
                      {group.resource}
                    </label>
                  </legend>
                  <div className="space-y-1">
                    {group.types.map((type) => (
                      <label key={type} className="flex items-center gap-2 font-mono text-xs text-stone-800">
                        <input type="checkbox" className="h-3.5 w-3.5 accent-teal-700" checked={selected.has(type)} onChange={(e) => toggle([type], e.target.checked)} />
                        {type}
                      </label>
                    ))}
                  </div>
                </fieldset>
              );
            })}
          </div>
        ) : null}
        {missing || fieldError("enabled_events") ? (
          <p role="alert" className="text-xs text-red-700" data-field-error="enabled_events">
            {fieldError("enabled_events") ?? "Choose at least one event type, or all events."}
          </p>
        ) : null}
      </fieldset>
      {failure && !fieldError("url") && !fieldError("description") && !fieldError("enabled_events") ? <Alert>{failure.message}</Alert> : null}
      <div className="flex flex-wrap justify-end gap-2">
        <DialogClose asChild>
          <Button type="button" variant="secondary">
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
