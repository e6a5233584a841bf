"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { z } from "zod";
import { AuditTrail } from "@/components/audit/audit-trail";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Card, Input, PageHeader, Select } from "@/components/ui";
import { MailHeldBanner } from "@/components/guest-mail/mail-held-banner";
import { Form, FormCheckbox, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { currencyOptions, timeZoneOptions } from "./format";

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Enter a time such as 15:00.");
const line = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

/** What the form holds; the server checks the same again (`propertyCreateSchema`). */
const propertyForm = z.object({
  name: z.string().trim().min(1, "Enter the property's name.").max(100, "At most 100 characters."),
  line1: line(200),
  line2: line(200),
  city: line(100),
  region: line(100),
  postal_code: line(20),
  country: z
    .string()
    .trim()
    .regex(/^([A-Za-z]{2})?$/, "Two letters, such as US or PT."),
  timezone: z.string().min(1, "Choose a time zone."),
  currency: z.string().min(1, "Choose a currency."),
  check_in_time: time,
  check_out_time: time,
  guest_emails: z.boolean(),
  audit_hour: z.coerce.number().int().min(0, "Choose an hour.").max(23, "Choose an hour."),
  overstay_at_audit: z.enum(["extend", "refuse"]),
  walk_ins_without_email: z.boolean(),
});
type PropertyForm = z.output<typeof propertyForm>;
const auditHours = Array.from({ length: 24 }, (_, hour) => hour);

type Property = {
  id: string;
  name: string;
  timezone: string;
  currency: string;
  address: Partial<Record<"line1" | "line2" | "city" | "region" | "postal_code" | "country", string>>;
  check_in_time: string;
  check_out_time: string;
  guest_emails: boolean;
  audit_hour: number;
  overstay_at_audit: "extend" | "refuse";
  walk_ins_without_email: boolean;
  room_count: number;
};

const toInput = ({ line1, line2, city, region, postal_code, country, ...rest }: PropertyForm) => ({
  ...rest,
  address: { line1, line2, city, region, postal_code, country },
});

// The API's address fields, named as the form's.
const fieldOf = { "address.line1": "line1", "address.line2": "line2", "address.city": "city", "address.region": "region", "address.postal_code": "postal_code", "address.country": "country" } as const;

/** The property page: a form that creates the first property, or changes the one on screen. */
export function PropertyView({ propertyId }: { propertyId: string | null }) {
  const trpc = useTRPC();
  const property = useQuery({ ...trpc.setup.property.get.queryOptions({ id: propertyId ?? "" }), enabled: !!propertyId });
  if (!propertyId) {
    return (
      <>
        <PageHeader title="Property" description="Your hotel starts here: its name, where it is, its clock and its money." />
        <PropertyForm property={null} />
      </>
    );
  }
  if (property.error) return <ErrorState message={callError(property.error).message} onRetry={() => property.refetch()} />;
  return (
    <>
      <PageHeader title="Property" description={property.data ? `${property.data.name}: name, address, time zone, currency, the day's hours and the night audit.` : "Loading…"} />
      {!property.data ? (
        <LoadingState rows={8} label="Loading the property…" />
      ) : (
        <div className="space-y-6">
          {property.data.guest_emails ? <MailHeldBanner /> : null}
          <PropertyForm key={property.data.id} property={property.data} />
          <AuditTrail objectType="property" objectId={property.data.id} title="Property history" />
        </div>
      )}
    </>
  );
}

function PropertyForm({ property }: { property: Property | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const zones = useMemo(() => timeZoneOptions(), []);
  const currencies = useMemo(() => currencyOptions(), []);
  const form = useZodForm(propertyForm, {
    defaultValues: {
      name: property?.name ?? "",
      line1: property?.address.line1 ?? "",
      line2: property?.address.line2 ?? "",
      city: property?.address.city ?? "",
      region: property?.address.region ?? "",
      postal_code: property?.address.postal_code ?? "",
      country: property?.address.country ?? "",
      timezone: property?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC",
      currency: property?.currency ?? "",
      check_in_time: property?.check_in_time ?? "15:00",
      check_out_time: property?.check_out_time ?? "11:00",
      guest_emails: property?.guest_emails ?? true,
      audit_hour: property?.audit_hour ?? 3,
      overstay_at_audit: property?.overstay_at_audit ?? "extend",
      walk_ins_without_email: property?.walk_ins_without_email ?? false,
    },
  });
  const done = async (saved: Property, verb: string) => {
    await queryClient.invalidateQueries(trpc.setup.property.get.queryFilter());
    await queryClient.invalidateQueries(trpc.audit.list.queryFilter());
    toast.success(`${saved.name} ${verb}.`);
    form.reset(form.getValues());
    // The header's property switch and every page read the property list on the server.
    router.refresh();
  };
  const create = useMutation(trpc.setup.property.create.mutationOptions({ onSuccess: (p) => done(p, "created"), onError: (e) => showServerError(form, e, fieldOf) }));
  const update = useMutation(trpc.setup.property.update.mutationOptions({ onSuccess: (p) => done(p, "saved"), onError: (e) => showServerError(form, e, fieldOf) }));
  const pending = create.isPending || update.isPending;

  return (
    <Form form={form} onSubmit={(values) => (property ? update.mutate({ id: property.id, ...toInput(values) }) : create.mutate(toInput(values)))} aria-label="Property">
      <div className="space-y-6">
        <Card title="Name and address">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField<PropertyForm> name="name" label="Name" className="sm:col-span-2">
              {(control) => <Input {...control} autoComplete="organization" />}
            </FormField>
            <FormField<PropertyForm> name="line1" label="Street and number" className="sm:col-span-2">
              {(control) => <Input {...control} autoComplete="address-line1" />}
            </FormField>
            <FormField<PropertyForm> name="line2" label="Address line 2 (optional)" className="sm:col-span-2">
              {(control) => <Input {...control} autoComplete="address-line2" />}
            </FormField>
            <FormField<PropertyForm> name="city" label="City">
              {(control) => <Input {...control} autoComplete="address-level2" />}
            </FormField>
            <FormField<PropertyForm> name="region" label="Region or state (optional)">
              {(control) => <Input {...control} autoComplete="address-level1" />}
            </FormField>
            <FormField<PropertyForm> name="postal_code" label="Postal code">
              {(control) => <Input {...control} autoComplete="postal-code" />}
            </FormField>
            <FormField<PropertyForm> name="country" label="Country code" hint="Two letters, such as US, PT or DE.">
              {(control) => <Input {...control} autoComplete="country" maxLength={2} className="uppercase" />}
            </FormField>
          </div>
        </Card>
        <Card title="Clock and money">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField<PropertyForm> name="timezone" label="Time zone" hint="Decides the property's today, arrivals and departures.">
              {(control) => (
                <Select {...control}>
                  {zones.map((zone) => (
                    <option key={zone} value={zone}>
                      {zone.replace(/_/g, " ")}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField<PropertyForm> name="currency" label="Currency" hint={property ? "It can change only until the first rate or booking." : "Every price and payment is in it."}>
              {(control) => (
                <Select {...control}>
                  <option value="">Choose…</option>
                  {currencies.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.label}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField<PropertyForm> name="check_in_time" label="Check-in from">
              {(control) => <Input {...control} type="time" />}
            </FormField>
            <FormField<PropertyForm> name="check_out_time" label="Check-out by">
              {(control) => <Input {...control} type="time" />}
            </FormField>
            <FormField<PropertyForm>
              name="audit_hour"
              label="Night audit at"
              hint="Closes the hotel's day: no-shows, the day's report, the next business date. Before noon it runs the next morning."
            >
              {(control) => (
                <Select {...control}>
                  {auditHours.map((hour) => (
                    <option key={hour} value={hour}>
                      {`${String(hour).padStart(2, "0")}:00`}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField<PropertyForm>
              name="overstay_at_audit"
              label="A guest still in house past departure"
              className="sm:col-span-2"
              hint="What the night audit does when a guest due out has not checked out: sell them the night, or leave the day open and name them for the desk."
            >
              {(control) => (
                <Select {...control}>
                  <option value="extend">Extend the stay by the night and charge it</option>
                  <option value="refuse">Do not close the day; name the guests</option>
                </Select>
              )}
            </FormField>
          </div>
        </Card>
        <Card title="Guest e-mails">
          <FormCheckbox<PropertyForm>
            name="guest_emails"
            label="E-mail guests when a booking is confirmed, changed or cancelled"
            hint="Sent to guests who gave an e-mail address, with the stay, the price and the cancellation policy. Preview one on any reservation."
          />
        </Card>
        <Card title="Front desk">
          <FormCheckbox<PropertyForm>
            name="walk_ins_without_email"
            label="Walk-ins may be booked without an e-mail"
            hint="Otherwise every booking needs the guest's e-mail; a walk-in without one is found again by phone and last name."
          />
        </Card>
        <FormError />
        <div className="flex flex-wrap items-center justify-end gap-3">
          {property && property.room_count === 0 ? (
            <p className="mr-auto text-sm text-stone-600">
              Next:{" "}
              <Link href="/settings/room-types" className="font-medium text-teal-800 underline">
                add its room types
              </Link>
              , then its rooms.
            </p>
          ) : null}
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : property ? "Save changes" : "Create property"}
          </Button>
        </div>
      </div>
    </Form>
  );
}
