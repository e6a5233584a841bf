// GET /credit-notes/{id}/pdf: an issued credit note as a PDF download, for the signed-in staff member
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { dashboardRequest } from "@/server/trpc/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Runs `folios.creditNotePdf` (its role check, the renderer `/v1` uses) and answers the file. */
export async function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  const { caller } = await dashboardRequest();
  try {
    const pdf = await caller.folios.creditNotePdf({ id: (await params).id });
    return new Response(new Uint8Array(pdf.body), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="credit-note-${pdf.number}.pdf"; filename*=UTF-8''${encodeURIComponent(pdf.filename)}`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return new Response(`${error.message}\n`, { status: getHTTPStatusCodeFromError(error), headers: { "content-type": "text/plain; charset=utf-8" } });
  }
}
