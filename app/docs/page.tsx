import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { ApiReference, type Guides, type OpenApiDoc } from "@/components/api-reference/api-reference";
import { openApiDocument } from "@/server/http/openapi-document";

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
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
          <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
            Innkeep
          </Link>
          <span className="text-sm text-stone-600">API reference</span>
          <a href="/v1/openapi.json" className="ml-auto text-sm text-teal-800 underline">
            OpenAPI JSON
          </a>
        </div>
      </header>
      <ApiReference doc={doc} origin={base} guides={docs} />
    </>
  );
}
