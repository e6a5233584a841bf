import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { getLocale, getTranslations } from "next-intl/server";
import { GuestShell } from "@/components/booking-engine/guest-shell";
import { guestDay, guestMoment, guestMoney, guestQuery } from "@/components/booking-engine/guest-words";
import { StaySummary } from "@/components/booking-engine/stay-summary";
import { GuestField, guestButton, guestInput, StayFields } from "@/components/booking-engine/stay-fields";
import type { GuestLocale } from "@/lib/guest-locale";
import { engineBySlug } from "@/server/booking-engine/guest";
import { countGuestRequest } from "@/server/booking-engine/limits";
import { getManagedStay, manageProblemOf, previewStayChange, type ManageProblem } from "@/server/booking-engine/manage";
import { engineSearchQuery } from "@/server/booking-engine/schemas";
import { ApiError } from "@/server/errors";
import { clientAddressHeader } from "@/server/listener";
import { getApiDeps } from "@/server/runtime";

export const metadata: Metadata = { robots: { index: false }, referrer: "no-referrer" };

type Query = { token?: string; lang?: string; step?: string; check_in?: string; check_out?: string; adults?: string; children?: string; problem?: string; done?: string };

const problems = new Set<ManageProblem>(["too_many_requests", "no_availability", "restricted", "not_allowed", "price_changed", "fee_changed", "requests", "party", "dates"]);
const dones = new Set(["changed", "requests", "cancelled"]);

// /book/<slug>/manage?token=…: the booking a guest's confirmation e-mail links to, without an
// account. They see the stay and its terms as they meet them now, and change its dates or party
// (the new price shown first), add requests, or cancel (the fee stated first). Every action is a
// plain form: a look at a change is this page again (`step=change` with the stay asked for), the
// actions post to /book-api/<slug>/manage/…, which answer 303 back here.
export default async function ManageBookingPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Query> }) {
  const [{ slug }, query, locale, t] = await Promise.all([params, searchParams, getLocale() as Promise<GuestLocale>, getTranslations("book")]);
  const deps = await getApiDeps();
  const { property } = await engineBySlug(deps.db, slug).catch((error: unknown) => (error instanceof ApiError && error.code === "resource_missing" ? notFound() : Promise.reject(error)));
  const token = query.token ?? "";
  const address = (await headers()).get(clientAddressHeader) || undefined;
  const shell = (children: ReactNode) => (
    <GuestShell hotel={{ name: property.name, city: property.address.city }} locale={locale} languageLabel={t("language")} path={`/book/${slug}/manage`} query={{ token }}>
      {children}
    </GuestShell>
  );

  let booking: Awaited<ReturnType<typeof getManagedStay>>;
  try {
    await countGuestRequest(deps.limiter, "search", address);
    booking = await getManagedStay({ db: deps.db, slug, token });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const why = error.code === "token_expired" ? "expired" : error.code === "too_many_requests" ? "busy" : "invalid";
    return shell(
      <div className="mx-auto max-w-xl py-10 text-center">
        <h1 className="text-xl font-semibold">{t(`manage.link.${why}.title`)}</h1>
        <p className="mt-2 text-sm text-stone-700">{t(`manage.link.${why}.body`)}</p>
        <p className="mt-4">
          <a href={`/book/${slug}${guestQuery({ lang: locale })}`} className="text-sm font-medium text-teal-800 underline">
            {t("manage.link.search")}
          </a>
        </p>
      </div>,
    );
  }

  let problem = query.problem && problems.has(query.problem as ManageProblem) ? (query.problem as ManageProblem) : null;
  const done = query.done && dones.has(query.done) ? query.done : null;
  const confirmed = booking.status === "confirmed";
  const asked = query.step === "change" ? engineSearchQuery.safeParse({ check_in: query.check_in, check_out: query.check_out, adults: query.adults ?? "1", children: query.children ?? "0" }) : null;
  let preview: Awaited<ReturnType<typeof previewStayChange>> | null = null;
  if (asked && confirmed && booking.can_change && !query.problem) {
    if (!asked.success) problem = "dates";
    else {
      try {
        await countGuestRequest(deps.limiter, "manage", address);
        preview = await previewStayChange({ db: deps.db, slug, token, change: asked.data });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        problem = manageProblemOf(error);
      }
    }
  }
  const values = {
    check_in: query.check_in ?? booking.stay.check_in,
    check_out: query.check_out ?? booking.stay.check_out,
    adults: query.adults ?? String(booking.stay.adults),
    children: query.children ?? String(booking.stay.children),
  };
  const here = (extra: Record<string, string>) => `/book/${slug}/manage${guestQuery({ token, lang: locale, ...extra })}`;
  const party = (s: { nights: number; adults: number; children: number }) => t("results.party", s);
  const terms = booking.terms.free ? t("policy.refundable", { deadline: guestMoment(booking.terms.until, locale) }) : booking.terms.reason === "non_refundable" ? t("policy.nonRefundable") : t("manage.deadlinePassed");

  return shell(
    <>
      <h1 className="text-2xl font-semibold">{t("manage.title")}</h1>
      <p className="mt-1 text-sm text-stone-700">{t("manage.hello", { name: booking.guest_first_name })}</p>
      <div className="my-4 flex flex-wrap items-baseline gap-x-3 gap-y-1 rounded-lg border border-teal-200 bg-teal-50 p-4">
        <p className="text-sm text-teal-900">{t("confirmed.reference")}</p>
        <p className="font-mono text-xl font-semibold tracking-wider text-teal-950" data-testid="booking-reference">
          {booking.reference}
        </p>
      </div>
      {done ? (
        <p role="status" className="mb-4 rounded-md border border-teal-300 bg-white p-3 text-sm font-medium text-teal-900">
          {t(`manage.done.${done as "changed"}`)}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          {t(`manage.problem.${problem}`)}
        </p>
      ) : null}
      {!confirmed ? (
        <p className="mb-4 rounded-md border border-stone-300 bg-white p-3 text-sm font-medium text-stone-900" data-testid="booking-status">
          {booking.status === "cancelled" ? t("manage.cancelledNotice") : t("manage.closedNotice")}
        </p>
      ) : null}
      <StaySummary t={t as never} locale={locale} hotel={booking.hotel} stay={booking.stay} room={booking.room.name} rate={booking.rate} total={booking.total} tax={booking.tax} policy={null} />
      {confirmed ? <p className="mt-3 text-sm text-stone-700">{terms}</p> : null}

      {confirmed ? (
        <section aria-labelledby="change-title" className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
          <h2 id="change-title" className="mb-3 text-base font-medium">
            {t("manage.change.title")}
          </h2>
          {booking.can_change ? (
            <>
              <form method="get" action={`/book/${slug}/manage`}>
                <input type="hidden" name="token" value={token} />
                <input type="hidden" name="lang" value={locale} />
                <input type="hidden" name="step" value="change" />
                <StayFields
                  today={booking.today}
                  values={values}
                  labels={{ checkIn: t("search.checkIn"), checkOut: t("search.checkOut"), adults: t("search.adults"), children: t("search.children") }}
                  button={
                    <button type="submit" className={`col-span-2 sm:col-span-1 ${guestButton.secondary}`}>
                      {t("manage.change.look")}
                    </button>
                  }
                />
              </form>
              {preview ? (
                preview.unchanged ? (
                  <p className="mt-3 text-sm text-stone-700">{t("manage.change.unchanged")}</p>
                ) : (
                  <div className="mt-4 rounded-md border border-teal-200 bg-teal-50 p-3" data-testid="change-preview">
                    <p className="text-sm font-medium text-teal-950">{t("manage.change.newStay")}</p>
                    <p className="mt-1 text-sm text-stone-900">
                      {guestDay(preview.stay.check_in, locale)} – {guestDay(preview.stay.check_out, locale)} · {party(preview.stay)}
                    </p>
                    <p className="mt-1 text-sm text-stone-900">
                      {t("manage.change.newTotal", { amount: guestMoney(preview.total, locale), before: guestMoney(preview.before, locale) })}
                    </p>
                    <form method="post" action={`/book-api/${slug}/manage/change`} className="mt-3">
                      <input type="hidden" name="token" value={token} />
                      <input type="hidden" name="lang" value={locale} />
                      <input type="hidden" name="check_in" value={preview.stay.check_in} />
                      <input type="hidden" name="check_out" value={preview.stay.check_out} />
                      <input type="hidden" name="adults" value={preview.stay.adults} />
                      <input type="hidden" name="children" value={preview.stay.children} />
                      <input type="hidden" name="total" value={preview.total.amount} />
                      <button type="submit" className={guestButton.primary}>
                        {t("manage.change.confirm")}
                      </button>
                    </form>
                  </div>
                )
              ) : null}
            </>
          ) : (
            <p className="text-sm text-stone-700">{t(`manage.change.refused.${booking.change_refusal === "non_refundable" ? "non_refundable" : "deadline_passed"}`)}</p>
          )}
        </section>
      ) : null}

      {confirmed ? (
        <section aria-labelledby="requests-title" className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
          <h2 id="requests-title" className="mb-3 text-base font-medium">
            {t("manage.requests.title")}
          </h2>
          <form method="post" action={`/book-api/${slug}/manage/requests`} className="space-y-2">
            <input type="hidden" name="token" value={token} />
            <input type="hidden" name="lang" value={locale} />
            <GuestField id="special_requests" label={t("manage.requests.label")}>
              <textarea id="special_requests" name="special_requests" required maxLength={1000} rows={3} aria-describedby="requests-hint" className={guestInput} />
            </GuestField>
            <p id="requests-hint" className="text-xs text-stone-600">
              {t("details.requestsHint")}
            </p>
            <button type="submit" className={guestButton.secondary}>
              {t("manage.requests.submit")}
            </button>
          </form>
        </section>
      ) : null}

      {confirmed && booking.cancel_fee ? (
        <section aria-labelledby="cancel-title" className="mt-6 rounded-lg border border-stone-200 bg-white p-4">
          <h2 id="cancel-title" className="mb-3 text-base font-medium">
            {t("manage.cancel.title")}
          </h2>
          {query.step === "cancel" ? (
            <div data-testid="cancel-terms">
              <p className="text-sm font-medium text-stone-900">
                {booking.cancel_fee.amount ? t("manage.cancel.fee", { amount: guestMoney(booking.cancel_fee, locale) }) : t("manage.cancel.free")}
              </p>
              <form method="post" action={`/book-api/${slug}/manage/cancel`} className="mt-3 flex flex-wrap items-center gap-3">
                <input type="hidden" name="token" value={token} />
                <input type="hidden" name="lang" value={locale} />
                <input type="hidden" name="fee" value={booking.cancel_fee.amount} />
                <button type="submit" className={guestButton.danger}>
                  {t("manage.cancel.confirm")}
                </button>
                <a href={here({})} className="text-sm font-medium text-teal-800 underline">
                  {t("manage.cancel.keep")}
                </a>
              </form>
            </div>
          ) : (
            <a href={here({ step: "cancel" })} className={guestButton.secondary}>
              {t("manage.cancel.start")}
            </a>
          )}
        </section>
      ) : null}
      <p className="mt-6 text-xs text-stone-600">{t("manage.linkUntil", { date: guestDay(booking.link_expires_on, locale) })}</p>
    </>,
  );
}

