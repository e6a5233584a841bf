import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { GuestShell } from "@/components/booking-engine/guest-shell";
import { StaySummary } from "@/components/booking-engine/stay-summary";
import type { GuestLocale } from "@/lib/guest-locale";
import { getConfirmation } from "@/server/booking-engine/guest";
import { ApiError } from "@/server/errors";
import { getApiDeps } from "@/server/runtime";

export const metadata: Metadata = { robots: { index: false } };

// /book/<slug>/confirmed?t=…: the booking the guest's form became, with its reference (the token
// is the one only their browser holds).
export default async function BookingConfirmedPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<{ t?: string }> }) {
  const [{ slug }, { t: token }, locale, t] = await Promise.all([params, searchParams, getLocale() as Promise<GuestLocale>, getTranslations("book")]);
  if (!token) notFound();
  const { db } = await getApiDeps();
  const booking = await getConfirmation({ db, slug, token }).catch((error: unknown) => (error instanceof ApiError && error.code === "resource_missing" ? notFound() : Promise.reject(error)));
  return (
    <GuestShell hotel={{ name: booking.hotel.name, city: booking.hotel.address.city }} locale={locale} languageLabel={t("language")} path={`/book/${slug}/confirmed`} query={{ t: token }}>
      <h1 className="text-2xl font-semibold">{t("confirmed.title")}</h1>
      <p className="mt-1 text-sm text-stone-700">{t("confirmed.thanks", { name: booking.guest_first_name })}</p>
      <div className="my-4 rounded-lg border border-teal-200 bg-teal-50 p-4">
        <p className="text-sm text-teal-900">{t("confirmed.reference")}</p>
        <p className="font-mono text-2xl font-semibold tracking-wider text-teal-950" data-testid="booking-reference">
          {booking.reference}
        </p>
        <p className="mt-1 text-sm text-teal-900">{t("confirmed.email")}</p>
      </div>
      <StaySummary t={t as never} locale={locale} hotel={booking.hotel} stay={booking.stay} room={booking.room.name} rate={booking.rate} total={booking.total} tax={booking.tax} policy={booking.policy} />
      <p className="mt-4">
        <a href={booking.manage_path} className="text-sm font-medium text-teal-800 underline">
          {t("confirmed.manage")}
        </a>
      </p>
      <p className="mt-2">
        <a href={`/book/${slug}?lang=${locale}`} className="text-sm font-medium text-teal-800 underline">
          {t("confirmed.another")}
        </a>
      </p>
    </GuestShell>
  );
}
