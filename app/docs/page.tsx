import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { ApiReference, type Guides } from "@/components/api-reference/api-reference";
import type { OpenApiDoc } from "@/components/api-reference/openapi-doc";
import { DocsHeader } from "@/components/api-reference/docs-header";
import { openApiDocument } from "@/server/api/openapi-document";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

let guides: Promise<Guides> | undefined;

/** The integrator's quickstart and the conventions, as written in `docs/` (read once per process). */
function readGuides(): Promise<Guides> {
  const read = (name: string) => readFile(path.join(process.cwd(), "docs", name), "utf8");
  guides ??= Promise.all([read("quickstart.md"), read("api-conventions.md")]).then(([quickstart, conventions]) => ({ quickstart, conventions }));
  return guides;
}

/** The origin this page was reached at, so that every example can be pasted as it is. */
async function origin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  return `${proto}://${host}`;
}

// /docs: the conventions, the quickstart and the REST API reference, rendered from the generated OpenAPI document
export default async function DocsPage() {
  const [doc, docs, base] = await Promise.all([openApiDocument() as unknown as Promise<OpenApiDoc>, readGuides(), origin()]);
  return (
    <>
      <DocsHeader title="API reference" />
      <ApiReference doc={doc} origin={base} guides={docs} />
    </>
  );
}
