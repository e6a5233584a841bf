import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getStaffSession } from "@/server/next-auth/session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

/** Only same-site paths: a sign-in link must not send anyone elsewhere. */
const safePath = (value: string | string[] | undefined) =>
  typeof value === "string" && value.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\") ? value : "/";

// /signin: staff sign-in
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safePath((await searchParams).callbackUrl);
  if (await getStaffSession()) redirect(callbackUrl);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm">
        <div className="mb-6 text-center">
          <p className="text-2xl font-semibold tracking-tight text-teal-800">Innkeep</p>
          <h1 className="mt-1 text-sm font-normal text-stone-600">Sign in to your property dashboard</h1>
        </div>
        <div className="rounded-lg border border-stone-200 bg-white p-6 shadow-sm">
          <SignInForm callbackUrl={callbackUrl} />
        </div>
      </div>
    </main>
  );
}
