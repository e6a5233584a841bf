import { decideConsent } from "@/server/oauth/consent";
import { getDatabase } from "@/server/runtime";
import { getStaffSession } from "@/server/staff/session";

export const dynamic = "force-dynamic";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A small page for refusals of the form itself; the consent page's own look, no scripts. */
function page(status: number, title: string, message: string) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · Innkeep</title>
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;margin:0;display:flex;justify-content:center;padding:40px 16px}
main{max-width:28rem;width:100%}.brand{color:#115e59;font-size:1.5rem;font-weight:600;text-align:center;margin-bottom:24px}
.card{background:#fff;border:1px solid #e7e5e4;border-radius:8px;padding:24px}h1{font-size:1.125rem;margin:0 0 8px}p{font-size:.875rem;color:#57534e;margin:0}</style></head>
<body><main><p class="brand">Innkeep</p><div class="card"><h1>${escape(title)}</h1><p>${escape(message)}</p></div></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

// POST /oauth/authorize/decision: the consent form's Approve or Deny (logic in server/oauth/consent.ts).
export async function POST(request: Request) {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    return page(415, "Unsupported form", "The consent form must be submitted from the consent page.");
  }
  const form = new URLSearchParams();
  for (const [key, value] of await request.formData()) if (typeof value === "string") form.append(key, value);
  const { db } = await getDatabase();
  const outcome = await decideConsent({ db, session: await getStaffSession(), form });
  if (outcome.kind === "page") return page(outcome.status, outcome.title, outcome.message);
  return new Response(null, { status: 303, headers: { location: outcome.location, "cache-control": "no-store" } });
}
