// /stripe/webhooks/{id}: Stripe's events in, the same Hono app the Node listener serves (this route answers when Next alone runs)
import { createApp } from "@/server/api/app";
import { getApiDeps } from "@/server/runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

let app: Promise<ReturnType<typeof createApp>> | undefined;

async function handler(req: Request) {
  app ??= getApiDeps().then(createApp);
  return (await app).fetch(req);
}

export { handler as POST };
