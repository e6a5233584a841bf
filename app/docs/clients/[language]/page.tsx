import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { clientGuideMarkdown, clientGuides, headingsOf, type ClientGuide } from "@/components/api-reference/clients";
import { DocsHeader } from "@/components/api-reference/docs-header";
import { Markdown } from "@/components/api-reference/markdown";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ language: string }> };

async function guideOf({ params }: Params) {
  const { language } = await params;
  return clientGuides.find((c) => c.slug === language);
}

export async function generateMetadata(props: Params): Promise<Metadata> {
  const guide = await guideOf(props);
  return { title: guide ? `${guide.language} client` : "API reference" };
}

const pages = new Map<string, Promise<string>>();

/** The client's README as /docs shows it (read once per process). */
function readGuide(guide: ClientGuide): Promise<string> {
  let page = pages.get(guide.slug);
  if (!page) {
    page = readFile(path.join(process.cwd(), "clients", guide.folder, "README.md"), "utf8").then((readme) => clientGuideMarkdown(readme, guide.install));
    pages.set(guide.slug, page);
  }
  return page;
}

// /docs/clients/<language>: one official client library's guide, beside the API reference
export default async function ClientGuidePage(props: Params) {
  const guide = await guideOf(props);
  if (!guide) notFound();
  const source = await readGuide(guide);
  const contents = (
    <>
      <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-stone-600">Client libraries</p>
      {clientGuides.map((c) => (
        <a key={c.slug} href={`/docs/clients/${c.slug}`} aria-current={c.slug === guide.slug ? "page" : undefined} className="block py-1 text-stone-700 hover:text-stone-950 aria-[current=page]:font-semibold aria-[current=page]:text-teal-800">
          {c.language}
        </a>
      ))}
      <p className="mt-4 mb-1 text-xs font-semibold uppercase tracking-wide text-stone-600">On this page</p>
      {headingsOf(source).map((h) => (
        <a key={h.href} href={h.href} className="block truncate py-1 text-stone-700 hover:text-stone-950">{h.title}</a>
      ))}
      <a href="/docs#conventions-10-client-libraries" className="mt-4 block py-1 text-stone-700 hover:text-stone-950">All client libraries</a>
      <a href="/docs" className="block py-1 text-stone-700 hover:text-stone-950">API reference</a>
    </>
  );
  return (
    <>
      <DocsHeader title={`${guide.language} client`} back />
      <div className="mx-auto flex max-w-7xl gap-10 px-4 py-6 sm:px-6 sm:py-8">
        <nav aria-label="Client libraries" className="sticky top-6 hidden max-h-[calc(100vh-3rem)] w-60 shrink-0 self-start overflow-y-auto text-sm lg:block">
          {contents}
        </nav>
        <main className="min-w-0 max-w-4xl flex-1">
          <details className="mb-6 rounded-md border border-stone-200 bg-white px-3 py-2 text-sm lg:hidden">
            <summary className="cursor-pointer font-medium text-stone-800">Contents</summary>
            <nav aria-label="Contents" className="mt-2 max-h-96 overflow-y-auto">{contents}</nav>
          </details>
          <h1 className="text-2xl font-semibold tracking-tight">{guide.language} client</h1>
          <p className="mt-1 font-mono text-sm break-all text-stone-600">{guide.name}</p>
          <div className="text-sm">
            <Markdown source={source} sectionLevel={2} />
          </div>
        </main>
      </div>
    </>
  );
}
