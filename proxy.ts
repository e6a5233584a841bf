import { NextResponse, type NextRequest } from "next/server";
import { consentFormTargets, contentSecurityPolicy, hstsValue, servedOverHttps, takesCards } from "@/server/http/page-headers";
import { malformedAuthorizeRequest, type AuthorizeParams } from "@/server/oauth/authorize-shape";
import { problemPage } from "@/server/oauth/problem-page";
import { guestLocaleOf } from "@/lib/guest-locale";

// Every page: a Content-Security-Policy with a fresh script nonce (Next reads it from the
// request's policy header and stamps it on its scripts), and HSTS when served over https.
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const https = servedOverHttps(request.nextUrl, request.headers.get("x-forwarded-proto"));
  const formTargets = consentFormTargets(request.nextUrl.pathname, request.nextUrl.searchParams.get("redirect_uri"));
  const policy = contentSecurityPolicy({ nonce, https, dev: process.env.NODE_ENV === "development", formTargets, stripe: takesCards(request.nextUrl.pathname) });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  // The guest pages' language (i18n/request.ts reads it); whatever a caller sent in it is replaced.
  requestHeaders.delete("x-innkeep-locale");
  if (request.nextUrl.pathname.startsWith("/book/")) {
    requestHeaders.set("x-innkeep-locale", guestLocaleOf(request.nextUrl.searchParams.get("lang"), request.headers.get("accept-language")));
  }
  const asksConsent = request.nextUrl.pathname === "/oauth/authorize" && (request.method === "GET" || request.method === "HEAD");
  const malformed = asksConsent ? malformedAuthorizeRequest(queryOf(request.nextUrl.searchParams)) : null;
  // A Next page answers 200; an authorization request naming no app or no address to return to
  // is refused here with a 400 page (the page would show the same words, from the same rule).
  const response = malformed ? problemPage(400, malformed.title, malformed.message) : NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  if (https) response.headers.set("Strict-Transport-Security", hstsValue);
  return response;
}

/** A query as the page's searchParams give it: a repeated parameter as a list. */
function queryOf(search: URLSearchParams): AuthorizeParams {
  const params: AuthorizeParams = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    params[key] = values.length > 1 ? values : values[0];
  }
  return params;
}

export const config = {
  // Not the build's static files (no scripts run from them), nor prefetches (their answer is not a page).
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico|icon.svg).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
