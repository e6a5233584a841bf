"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { z } from "zod";
import { AuditTrail } from "@/components/audit/audit-trail";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, Input, PageHeader } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import { Form, FormCheckbox, FormError, FormField, FormFieldset, showServerError, useZodForm } from "@/components/ui/form";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { SetupLink } from "./needs-property";
import { SearchBoxCard } from "./booking-engine-snippet";

/** What the form holds; the server checks the same again (`bookingEngineUpdateSchema`), and that switching on needs an address and a rate. */
const engineForm = z
  .object({
    enabled: z.boolean(),
    slug: z
      .string()
      .trim()
      .refine((s) => s === "" || (s.length >= 3 && s.length <= 63), "Between 3 and 63 characters.")
      .refine((s) => s === "" || /^[a-z0-9]+(-[a-z0-9]+)*$/.test(s), "Lower-case letters, digits and single hyphens between them, such as harbor-house."),
    rate_plan_ids: z.array(z.string()),
  })
  .superRefine((v, ctx) => {
    if (v.enabled && !v.slug) ctx.addIssue({ code: "custom", path: ["slug"], message: "Choose an address before switching the booking page on." });
    if (v.enabled && !v.rate_plan_ids.length) ctx.addIssue({ code: "custom", path: ["rate_plan_ids"], message: "Choose at least one rate to sell." });
  });
type EngineForm = z.input<typeof engineForm>;

const noSubscription = () => () => {};

/** A suggestion for a first address: the hotel's name in lower case, hyphenated. */
const slugFrom = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);

/** The booking engine's settings: on or off, the address, the rates sold there, and the link for the hotel's website. */
export function BookingEngineView({ property }: { property: { id: string; name: string } }) {
  const trpc = useTRPC();
  const engine = useQuery(trpc.setup.bookingEngine.get.queryOptions({ property_id: property.id }));
  const plans = useQuery(trpc.setup.ratePlans.list.queryOptions({ property_id: property.id }));
  const header = <PageHeader title="Booking engine" description={`${property.name}'s own booking page: guests search, choose and book there, in their language, with no commission.`} />;
  const error = engine.error ?? plans.error;
  if (error) {
    return (
      <>
        {header}
        <ErrorState message={callError(error).message} onRetry={() => (engine.error ? engine.refetch() : plans.refetch())} />
      </>
    );
  }
  if (!engine.data || !plans.data) {
    return (
      <>
        {header}
        <LoadingState rows={6} label="Loading the booking engine…" />
      </>
    );
  }
  const active = plans.data.filter((p) => p.active);
  return (
    <>
      {header}
      {active.length === 0 ? (
        <EmptyState title="No rates to sell yet" action={<SetupLink href="/settings/rate-plans">Add a rate plan</SetupLink>}>
          The booking page sells the property&apos;s rate plans. Add one (and its nightly prices on Rates) first.
        </EmptyState>
      ) : (
        <div className="space-y-6">
          <EngineSettings key={engine.data.updated_at ?? "new"} propertyId={property.id} name={property.name} engine={engine.data} plans={active} />
          <AuditTrail objectType="booking_engine" objectId={property.id} title="Property history" />
        </div>
      )}
    </>
  );
}

type Engine = { enabled: boolean; slug: string | null; path: string | null; rate_plan_ids: string[] };

function EngineSettings({ propertyId, name, engine, plans }: { propertyId: string; name: string; engine: Engine; plans: { id: string; name: string }[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // This server's address as the browser reaches it (the link to paste); none while rendered on the server.
  const origin = useSyncExternalStore(noSubscription, () => window.location.origin, () => "");
  const form = useZodForm(engineForm, {
    defaultValues: { enabled: engine.enabled, slug: engine.slug ?? slugFrom(name), rate_plan_ids: engine.slug ? engine.rate_plan_ids : plans.map((p) => p.id) },
  });
  const save = useMutation(
    trpc.setup.bookingEngine.update.mutationOptions({
      onSuccess: async (saved) => {
        await queryClient.invalidateQueries(trpc.setup.bookingEngine.get.queryFilter());
        await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
        toast.success(saved.enabled ? "The booking page is on." : "Booking engine settings saved.");
      },
      onError: (e) => showServerError(form, e),
    }),
  );
  const chosen = form.watch("rate_plan_ids");
  const url = engine.path && origin ? `${origin}${engine.path}` : null;
  const snippet = url ? `<a href="${url}" style="display:inline-block;padding:12px 20px;background:#0f766e;color:#fff;border-radius:6px;text-decoration:none;font-family:sans-serif">Book now</a>` : "";

  return (
    <>
      <Form form={form} onSubmit={(v) => save.mutate({ property_id: propertyId, enabled: v.enabled, slug: v.slug || null, rate_plan_ids: v.rate_plan_ids })} aria-label="Booking engine" className="space-y-6">
        <Card title="The booking page">
          <div className="space-y-4">
            <FormCheckbox<EngineForm> name="enabled" label="Guests can book on the booking page" hint="Switched off, its address shows a page that does not exist." />
            <FormField<EngineForm> name="slug" label="Address" hint={`Lower-case letters, digits and hyphens. The page is at ${origin || ""}/book/${form.watch("slug") || "…"}`}>
              {(control) => <Input {...control} autoComplete="off" spellCheck={false} className="max-w-sm" />}
            </FormField>
            <FormFieldset<EngineForm> name="rate_plan_ids" legend="Rates sold on it" hint="Each with its cancellation and no-show terms, shown to the guest in their language.">
              <div className="flex flex-wrap gap-x-5 gap-y-2">
                {plans.map((p) => (
                  <label key={p.id} className="flex items-center gap-2 text-sm text-stone-800">
                    <input
                      type="checkbox"
                      className="h-4 w-4 rounded border-stone-300 text-teal-700 focus:ring-teal-600"
                      checked={chosen.includes(p.id)}
                      onChange={(e) => form.setValue("rate_plan_ids", e.target.checked ? [...chosen, p.id] : chosen.filter((id) => id !== p.id), { shouldValidate: form.formState.isSubmitted, shouldDirty: true })}
                    />
                    {p.name}
                  </label>
                ))}
              </div>
            </FormFieldset>
            <FormError />
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save"}
              </Button>
            </div>
          </div>
        </Card>
      </Form>
      {url ? (
        <Card title="On your website">
          <div className="space-y-3 text-sm">
            <p className="text-stone-700">
              {engine.enabled ? "Link to the booking page from your website, or paste this button into it:" : "Once the page is on, link to it from your website, or paste this button into it:"}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <a href={engine.path!} target="_blank" rel="noopener" className="font-medium break-all text-teal-800 underline">
                {url}
              </a>
              <CopyButton text={url} label="Copy link" />
            </div>
            <pre className="overflow-x-auto rounded-md bg-stone-100 p-3 font-mono text-xs whitespace-pre-wrap break-all text-stone-800">{snippet}</pre>
            <CopyButton text={snippet} label="Copy button code" />
          </div>
        </Card>
      ) : null}
      {url ? <SearchBoxCard url={url} /> : null}
    </>
  );
}
