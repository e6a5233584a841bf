// The REST app as a Next route handler, for when Next alone runs (the Node listener serves the
// same Hono app itself): one app, built once, for /v1/* and Stripe's /stripe/webhooks/{id}.
import { createApp } from "@/server/api/app";
import { getApiDeps } from "@/server/runtime";

let app: Promise<ReturnType<typeof createApp>> | undefined;

export async function apiHandler(req: Request) {
  app ??= getApiDeps().then(createApp);
  return (await app).fetch(req);
}
