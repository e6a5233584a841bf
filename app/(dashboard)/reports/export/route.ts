// GET /reports/export?type&property_id&from&to[&group_by]: the report on screen as a CSV download
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { dashboardRequest } from "@/server/trpc/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Runs the `reports.csv` procedure (its role check, its input check, the CSV builder `/v1`
 * uses) for the signed-in staff member and the data set on screen, and answers it as a file.
 */
export async function GET(req: Request) {
  const { caller } = await dashboardRequest();
  const params = Object.fromEntries(new URL(req.url).searchParams);
  try {
    const csv = await caller.reports.csv(params as Parameters<typeof caller.reports.csv>[0]);
    return new Response(csv.body, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": `attachment; filename="${csv.filename}"`, "cache-control": "no-store" },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return new Response(`${error.message}\n`, { status: getHTTPStatusCodeFromError(error), headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}
