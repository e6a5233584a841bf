// /api/inngest: Inngest calls the webhook delivery functions here (when INNGEST_* is configured)
import { serve } from "inngest/next";
import { inngest } from "@/server/jobs/inngest-client";
import { inngestFunctions } from "@/server/process/inngest-functions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions });
