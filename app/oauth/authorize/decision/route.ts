import { decideConsent } from "@/server/oauth/consent";
import { problemPage } from "@/server/oauth/problem-page";
import { getDatabase } from "@/server/runtime";
import { getStaffSession } from "@/server/next-auth/session";

export const dynamic = "force-dynamic";

// POST /oauth/authorize/decision: the consent form's Approve or Deny (logic in server/oauth/consent.ts).
export async function POST(request: Request) {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    return problemPage(415, "Unsupported form", "The consent form must be submitted from the consent page.");
  }
  const form = new URLSearchParams();
  for (const [key, value] of await request.formData()) if (typeof value === "string") form.append(key, value);
  const { db } = await getDatabase();
  const outcome = await decideConsent({ db, session: await getStaffSession(), form });
  if (outcome.kind === "page") return problemPage(outcome.status, outcome.title, outcome.message);
  return new Response(null, { status: 303, headers: { location: outcome.location, "cache-control": "no-store" } });
}
