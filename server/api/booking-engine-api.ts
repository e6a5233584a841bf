import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "@/server/errors";
import { getConfig } from "@/server/config";
import { readJsonBody } from "@/server/http/body";
import { clientAddress } from "@/server/http/client-address";
import type { ApiDeps, ApiEnv } from "@/server/http/context";
import { outsideApp } from "@/server/http/outside-app";
import { parseOrThrow } from "@/server/http/validation";
import { bookSession, openSession, referenceOf, releaseSession, searchStays } from "@/server/booking-engine/guest";
import { priceCalendar } from "@/server/booking-engine/calendar";
import { countGuestRequest, type GuestAction } from "@/server/booking-engine/limits";
import { addStayRequests, cancelStay, changeStay, manageProblemOf } from "@/server/booking-engine/manage";
import { engineBookingSchema, engineCalendarQuery, engineChoiceSchema, engineManageCancelSchema, engineManageChangeSchema, engineManageRequestsSchema, engineSearchQuery, engineTokenSchema } from "@/server/booking-engine/schemas";

/** Where the booking engine's pages post (the pages themselves, `/book/<slug>`, are Next's). */
export const bookingEnginePath = "/book-api";

/** Languages the guest pages speak; anything else on a redirect is dropped. */
const pageLanguage = (lang: unknown) => (typeof lang === "string" && /^[a-z]{2}$/.test(lang) ? lang : undefined);

/**
 * The booking engine's public endpoints (issue 38), outside `/v1`: guests call them from the
 * hotel's booking page with no credential, so they are not operations of the API's document.
 * Each is counted per address (server/booking-engine/limits.ts); errors are the contract's.
 * The choice of a room is a plain HTML form (the page works before its script loads), answered
 * with a redirect to the details page; the rest speak JSON.
 */
export function createBookingEngineApi(deps: ApiDeps & { bookingMinFillMs?: number }) {
  const app = outsideApp(deps);
  const count = (c: Context<ApiEnv>, action: GuestAction) => countGuestRequest(deps.limiter, action, clientAddress(c), (state) => c.set("rate", state));
  const slugOf = (c: Context<ApiEnv>) => c.req.param("slug") ?? "";

  // GET /book-api/{slug}/search: the rooms and rates free for a stay, priced as the guest pays
  app.get("/:slug/search", async (c) => {
    c.set("route", `${bookingEnginePath}/{slug}/search`);
    await count(c, "search");
    const query = parseOrThrow(engineSearchQuery, c.req.query(), "query");
    return c.json(await searchStays({ db: deps.db, slug: slugOf(c), query }));
  });

  // GET /book-api/{slug}/calendar: a month of arrival days, each with its lowest price or why it is closed
  app.get("/:slug/calendar", async (c) => {
    c.set("route", `${bookingEnginePath}/{slug}/calendar`);
    await count(c, "search");
    const query = parseOrThrow(engineCalendarQuery, c.req.query(), "query");
    return c.json(await priceCalendar({ db: deps.db, slug: slugOf(c), query }));
  });

  // POST /book-api/{slug}/sessions: hold the chosen room while the guest fills the form
  app.post("/:slug/sessions", async (c) => {
    c.set("route", `${bookingEnginePath}/{slug}/sessions`);
    const slug = slugOf(c);
    const isForm = (c.req.header("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
    if (!isForm) {
      await count(c, "book");
      const choice = parseOrThrow(engineChoiceSchema, await readJsonBody(c, { required: true }), "body");
      return c.json(await openSession({ db: deps.db, slug, choice }), 201);
    }
    const form = Object.fromEntries(Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === "string"));
    const lang = pageLanguage(form.lang);
    try {
      await count(c, "book");
      const choice = parseOrThrow(engineChoiceSchema, form, "body");
      const { token } = await openSession({ db: deps.db, slug, choice });
      return c.redirect(`/book/${encodeURIComponent(slug)}/details?${new URLSearchParams({ t: token, ...(lang ? { lang } : {}) })}`, 303);
    } catch (error) {
      // Back to the search, saying why in the guest's words (the page reads `problem`); a 404 stays one.
      if (!(error instanceof ApiError) || error.code === "resource_missing") throw error;
      const back = new URLSearchParams();
      for (const key of ["check_in", "check_out", "adults", "children"]) if (form[key]) back.set(key, form[key]);
      if (lang) back.set("lang", lang);
      back.set("problem", error.code === "no_availability" || error.code === "too_many_requests" ? error.code : "unavailable");
      return c.redirect(`/book/${encodeURIComponent(slug)}?${back}`, 303);
    }
  });

  // POST /book-api/{slug}/sessions/release: the guest left the form; the held room goes back on sale
  app.post("/:slug/sessions/release", async (c) => {
    c.set("route", `${bookingEnginePath}/{slug}/sessions/release`);
    await count(c, "book");
    const isForm = (c.req.header("content-type") ?? "").startsWith("application/x-www-form-urlencoded");
    const body = isForm ? await c.req.parseBody() : await readJsonBody(c, { required: true });
    const { token } = parseOrThrow(engineTokenSchema, body, "body");
    return c.json(await releaseSession({ db: deps.db, token }));
  });

  // POST /book-api/{slug}/bookings: book the held stay with the guest's details (once, however often sent)
  app.post("/:slug/bookings", async (c) => {
    c.set("route", `${bookingEnginePath}/{slug}/bookings`);
    await count(c, "book");
    const slug = slugOf(c);
    const input = parseOrThrow(engineBookingSchema, await readJsonBody(c, { required: true }), "body");
    const minFillMs = deps.bookingMinFillMs ?? getConfig().BOOKING_MIN_FILL_SECONDS * 1000;
    // The confirmation e-mail's link to the manage page: on the server's public address when set (NEXTAUTH_URL), else the one asked.
    const origin = getConfig().NEXTAUTH_URL?.replace(/\/$/, "") ?? new URL(c.req.url).origin;
    const booked = await bookSession({ db: deps.db, slug, input, minFillMs, origin });
    const body = { reference: referenceOf(booked.reservationId), confirmation_path: `/book/${slug}/confirmed?${new URLSearchParams({ t: input.token })}`, replayed: booked.replayed };
    return c.json(body, booked.replayed ? 200 : 201);
  });

  /**
   * The manage page's actions (a plain HTML form each, answered 303 back to the page): the
   * page's link opens the booking; a refusal comes back as `problem=` in the guest's words, with
   * what they asked, and a link that no longer opens a booking shows the page's own refusal. An
   * unknown address stays a 404.
   */
  const manageAction = <S extends z.ZodType>(action: "change" | "requests" | "cancel", schema: S, run: (slug: string, input: z.output<S>) => Promise<unknown>) =>
    app.post(`/:slug/manage/${action}`, async (c) => {
      c.set("route", `${bookingEnginePath}/{slug}/manage/${action}`);
      const slug = slugOf(c);
      const form = Object.fromEntries(Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === "string"));
      const lang = pageLanguage(form.lang);
      const token = typeof form.token === "string" ? form.token.slice(0, 100) : "";
      const back = new URLSearchParams({ token, ...(lang ? { lang } : {}) });
      try {
        await count(c, "manage");
        await run(slug, parseOrThrow(schema, form, "body"));
        back.set("done", action === "change" ? "changed" : action === "requests" ? "requests" : "cancelled");
      } catch (error) {
        if (!(error instanceof ApiError) || error.code === "route_not_found") throw error;
        // An address no hotel has stays a 404; a link that opens no booking is the page's to say.
        if (error.code === "resource_missing" && error.param !== "token") throw error;
        if (error.code !== "resource_missing" && error.code !== "token_expired") {
          back.set("problem", manageProblemOf(error));
          if (action === "change") for (const key of ["check_in", "check_out", "adults", "children"]) if (form[key]) back.set(key, form[key]);
          if (action !== "requests") back.set("step", action);
        }
      }
      return c.redirect(`/book/${encodeURIComponent(slug)}/manage?${back}`, 303);
    });

  // POST /book-api/{slug}/manage/change: new dates or party, at the price the guest was shown
  manageAction("change", engineManageChangeSchema, (slug, input) =>
    changeStay({ db: deps.db, slug, token: input.token, change: { check_in: input.check_in, check_out: input.check_out, adults: input.adults, children: input.children }, expectedTotal: input.total }),
  );
  // POST /book-api/{slug}/manage/requests: special requests, to the reservation's notes
  manageAction("requests", engineManageRequestsSchema, (slug, input) => addStayRequests({ db: deps.db, slug, token: input.token, requests: input.special_requests }));
  // POST /book-api/{slug}/manage/cancel: cancel, at the fee the guest was shown
  manageAction("cancel", engineManageCancelSchema, (slug, input) => cancelStay({ db: deps.db, slug, token: input.token, expectedFee: input.fee }));

  app.all("*", (c) => {
    throw new ApiError("route_not_found", `Unrecognized request URL (${c.req.method} ${c.req.path}).`);
  });
  return app;
}
