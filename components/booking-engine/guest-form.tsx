"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { z } from "zod";
import { Button, Input, Textarea } from "@/components/ui";
import { Form, FormError, FormField, useZodForm } from "@/components/ui/form";

type Words = ReturnType<typeof useTranslations<"book.details">>;

/** The form's own check, in the guest's words; the server checks the same again with the API's schema (`engineGuestSchema`). */
const guestForm = (t: Words) =>
  z.object({
    first_name: z.string().trim().min(1, t("required")).max(200, t("tooLong")),
    last_name: z.string().trim().min(1, t("required")).max(200, t("tooLong")),
    email: z.string().trim().min(1, t("required")).pipe(z.email(t("emailInvalid"))),
    phone: z.union([z.literal(""), z.string().trim().min(3, t("invalid")).max(40, t("tooLong"))]),
    arrival_time: z.union([z.literal(""), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, t("invalid"))]),
    special_requests: z.string().trim().max(1000, t("tooLong")),
    website: z.string(),
  });
type GuestForm = z.input<ReturnType<typeof guestForm>>;

/** The API's field names, as the form calls them. */
const fieldOf: Record<string, keyof GuestForm> = {
  "guest.first_name": "first_name",
  "guest.last_name": "last_name",
  "guest.email": "email",
  "guest.phone": "phone",
  arrival_time: "arrival_time",
  special_requests: "special_requests",
};

/**
 * The guest's details for the held stay, posted as JSON to /book-api/<slug>/bookings; on success
 * the confirmation page. Leaving the page without booking gives the held room back at once (a
 * beacon to …/sessions/release); otherwise the hold ends by itself when its time is up.
 */
export function GuestDetailsForm({ slug, token, locale }: { slug: string; token: string; locale: string }) {
  const t = useTranslations("book.details");
  const router = useRouter();
  const booked = useRef(false);
  const [taken, setTaken] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useZodForm(guestForm(t), {
    defaultValues: { first_name: "", last_name: "", email: "", phone: "", arrival_time: "", special_requests: "", website: "" },
  });

  useEffect(() => {
    const release = () => {
      if (!booked.current) navigator.sendBeacon(`/book-api/${slug}/sessions/release`, new URLSearchParams({ token }));
    };
    window.addEventListener("pagehide", release);
    return () => window.removeEventListener("pagehide", release);
  }, [slug, token]);

  const submit = async (values: z.output<ReturnType<typeof guestForm>>) => {
    const body = {
      token,
      guest: { first_name: values.first_name, last_name: values.last_name, email: values.email, ...(values.phone ? { phone: values.phone } : {}) },
      ...(values.arrival_time ? { arrival_time: values.arrival_time } : {}),
      ...(values.special_requests ? { special_requests: values.special_requests } : {}),
      ...(values.website ? { website: values.website } : {}),
    };
    let res: Response;
    try {
      res = await fetch(`/book-api/${slug}/bookings`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    } catch {
      form.setError("root.server", { message: t("failed") });
      return;
    }
    const answer = await res.json().catch(() => null);
    if (res.ok && answer?.confirmation_path) {
      booked.current = true;
      setSent(true);
      router.push(`${answer.confirmation_path}&lang=${locale}`);
      return;
    }
    const error = answer?.error as { code?: string; param?: string } | undefined;
    const field = error?.param ? fieldOf[error.param] : undefined;
    if (field) form.setError(field, { message: field === "email" ? t("emailInvalid") : error?.code === "parameter_missing" ? t("required") : t("invalid") }, { shouldFocus: true });
    else if (error?.code === "no_availability" || error?.code === "restriction_violated") {
      setTaken(true);
      form.setError("root.server", { message: t("taken") });
    } else if (error?.code === "resource_missing") form.setError("root.server", { message: t("expired") });
    else form.setError("root.server", { message: t("failed") });
  };

  return (
    <Form form={form} onSubmit={submit} aria-label={t("title")} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField<GuestForm> name="first_name" label={t("firstName")}>
          {(control) => <Input {...control} autoComplete="given-name" />}
        </FormField>
        <FormField<GuestForm> name="last_name" label={t("lastName")}>
          {(control) => <Input {...control} autoComplete="family-name" />}
        </FormField>
        <FormField<GuestForm> name="email" label={t("email")} hint={t("emailHint")}>
          {(control) => <Input {...control} type="email" autoComplete="email" inputMode="email" />}
        </FormField>
        <FormField<GuestForm> name="phone" label={t("phone")}>
          {(control) => <Input {...control} type="tel" autoComplete="tel" />}
        </FormField>
        <FormField<GuestForm> name="arrival_time" label={t("arrival")}>
          {(control) => <Input {...control} type="time" />}
        </FormField>
        <FormField<GuestForm> name="special_requests" label={t("requests")} hint={t("requestsHint")} className="sm:col-span-2">
          {(control) => <Textarea {...control} rows={3} />}
        </FormField>
      </div>
      {/* The honeypot: out of sight and out of the accessibility tree; people leave it empty, form-filling bots do not. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="booking-website">{t("website")}</label>
        <input id="booking-website" tabIndex={-1} autoComplete="off" {...form.register("website")} />
      </div>
      <FormError />
      {taken ? (
        <p>
          <a href={`/book/${slug}?lang=${locale}`} className="text-sm font-medium text-teal-800 underline">
            {t("change")}
          </a>
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={form.formState.isSubmitting || sent}>
          {form.formState.isSubmitting || sent ? t("sending") : t("submit")}
        </Button>
      </div>
    </Form>
  );
}
