import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { GuestDetailsForm } from "@/components/booking-engine/guest-form";
import { GuestShell } from "@/components/booking-engine/guest-shell";
import { StaySummary } from "@/components/booking-engine/stay-summary";
import type { GuestLocale } from "@/lib/guest-locale";
import { engineBySlug, getSession } from "@/server/booking-engine/guest";
import { ApiError } from "@/server/errors";
import { getApiDeps } from "@/server/runtime";

export const metadata: Metadata = { robots: { index: false } };

// /book/<slug>/details?t=…: the guest's details for the room held for them (the token is the
// form's, made when they chose the room); a token unknown here says so, with the way back.
export default async function BookingDetailsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<{ t?: string }> }) {
  const [{ slug }, { t: token }, locale, t] = await Promise.all([params, searchParams, getLocale() as Promise<GuestLocale>, getTranslations("book")]);
  const { db } = await getApiDeps();
  const engine = await engineBySlug(db, slug).catch((error: unknown) => (error instanceof ApiError && error.code === "resource_missing" ? notFound() : Promise.reject(error)));
  const session = token ? await getSession({ db, slug, token }).catch((error: unknown) => (error instanceof ApiError && error.code === "resource_missing" ? null : Promise.reject(error))) : null;
  const shell = { hotel: { name: engine.property.name, city: engine.property.address.city }, locale, languageLabel: t("language"), path: `/book/${slug}/details`, query: { t: token } };
  if (!session || session.booked) {
    return (
      <GuestShell {...shell}>
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          {t("details.expired")}
        </p>
        <p className="mt-4">
          <a href={`/book/${slug}?lang=${locale}`} className="text-sm font-medium text-teal-800 underline">
            {t("details.change")}
          </a>
        </p>
      </GuestShell>
    );
  }
  const minutes = session.held_minutes;
  const back = `/book/${slug}?check_in=${session.stay.check_in}&check_out=${session.stay.check_out}&adults=${session.stay.adults}&children=${session.stay.children}&lang=${locale}`;
  return (
    <GuestShell {...shell}>
      <h1 className="mb-4 text-2xl font-semibold">{t("details.title")}</h1>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <section aria-labelledby="guest-title" className="order-2 lg:order-1">
          <h2 id="guest-title" className="sr-only">
            {t("details.title")}
          </h2>
          <div className="rounded-lg border border-stone-200 bg-white p-4">
            <NextIntlClientProvider>
              <GuestDetailsForm slug={slug} token={token!} locale={locale} />
            </NextIntlClientProvider>
          </div>
        </section>
        <section aria-labelledby="stay-title" className="order-1 space-y-3 lg:order-2">
          <h2 id="stay-title" className="text-base font-semibold">
            {t("details.stay")}
          </h2>
          <StaySummary
            t={t as never}
            locale={locale}
            hotel={session.hotel}
            stay={session.stay}
            room={session.room.name}
            rate={session.rate}
            total={session.price?.gross ?? null}
            tax={session.price?.tax ?? null}
            policy={session.policy}
          />
          {minutes ? <p className="text-sm text-stone-700">{t("details.held", { minutes })}</p> : null}
          <a href={back} className="inline-block text-sm font-medium text-teal-800 underline">
            {t("details.change")}
          </a>
        </section>
      </div>
    </GuestShell>
  );
}
