import { NextResponse, type NextRequest } from "next/server";
import { consentFormTargets, contentSecurityPolicy, hstsValue, servedOverHttps } from "@/server/http/page-headers";

// Every page: a Content-Security-Policy with a fresh script nonce (Next reads it from the
// request's policy header and stamps it on its scripts), and HSTS when served over https.
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const https = servedOverHttps(request.nextUrl, request.headers.get("x-forwarded-proto"));
  const formTargets = consentFormTargets(request.nextUrl.pathname, request.nextUrl.searchParams.get("redirect_uri"));
  const policy = contentSecurityPolicy({ nonce, https, dev: process.env.NODE_ENV === "development", formTargets });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  if (https) response.headers.set("Strict-Transport-Security", hstsValue);
  return response;
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
