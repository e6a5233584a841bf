import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { ConsentForm, ConsentProblem } from "@/components/oauth/consent";
import { checkAuthorizationRequest, grantableProperties } from "@/server/oauth/authorize";
import { authorizeParamNames, formToken, mayInstallApps } from "@/server/oauth/consent";
import { getDatabase } from "@/server/runtime";
import { getStaffSession } from "@/server/next-auth/session";

export const metadata: Metadata = { title: "Connect an app", robots: { index: false } };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

// /oauth/authorize: the OAuth consent page (contract §4); framing is refused in next.config.mjs.
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Search> }) {
  const params = await searchParams;
  const { db } = await getDatabase();
  const check = await checkAuthorizationRequest({ db, params });
  // An unknown app answers 404 (not-found.tsx beside this page says so); a Next page cannot
  // answer 400, so a malformed request is refused in proxy.ts before it gets here.
  if (check.kind === "error_page" && check.status === 404) notFound();
  if (check.kind === "error_page") return <ConsentProblem title={check.title} message={check.message} />;
  if (check.kind === "redirect") redirect(check.location);

  const session = await getStaffSession();
  if (!session) {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) for (const v of [value ?? []].flat()) query.append(key, v);
    redirect(`/signin?callbackUrl=${encodeURIComponent(`/oauth/authorize?${query}`)}`);
  }
  const { user } = session;
  const { request } = check;
  if (!mayInstallApps(user.role)) {
    return (
      <ConsentProblem
        title="You cannot connect apps"
        message={`"${request.client.name}" asked to connect to your account, but only an owner or a manager can approve apps. Ask one of them to open this link.`}
        action={
          <Link href="/" className="text-sm font-medium text-teal-800 underline-offset-2 hover:underline focus-visible:ring-2 focus-visible:ring-teal-600 focus-visible:outline-none">
            Back to the dashboard
          </Link>
        }
      />
    );
  }
  const hidden: Record<string, string> = { csrf_token: formToken(user.id, request) };
  for (const name of authorizeParamNames) {
    const value = params[name];
    if (typeof value === "string") hidden[name] = value;
  }
  return (
    <ConsentForm
      appName={request.client.name}
      publicApp={request.client.public}
      redirectHost={new URL(request.redirectUri).host}
      scopes={request.scopes}
      properties={await grantableProperties({ db, accountId: user.accountId })}
      hidden={hidden}
      userEmail={user.email}
    />
  );
}
