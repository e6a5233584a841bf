import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference, type OpenApiDoc } from "@/components/api-reference/api-reference";
import { openApiDocument } from "@/server/http/openapi-document";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

// /docs: the REST API reference, rendered from the generated OpenAPI document
export default async function DocsPage() {
  const doc = (await openApiDocument()) as unknown as OpenApiDoc;
  return (
    <>
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-6">
          <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
            Innkeep
          </Link>
          <span className="text-sm text-stone-500">API reference</span>
          <a href="/v1/openapi.json" className="ml-auto text-sm text-teal-800 hover:underline">
            OpenAPI JSON
          </a>
        </div>
      </header>
      <ApiReference doc={doc} />
    </>
  );
}
