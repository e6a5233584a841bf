import Link from "next/link";

/** The bar above every page of /docs: home, what this page is, and the machine-readable document. */
export function DocsHeader({ title, back }: { title: string; back?: boolean }) {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-4 px-4 sm:px-6">
        <Link href="/" className="text-lg font-semibold tracking-tight text-teal-800">
          Innkeep
        </Link>
        {back ? (
          <Link href="/docs" className="text-sm text-stone-600 underline decoration-stone-300 underline-offset-2 hover:text-stone-900">
            API reference
          </Link>
        ) : null}
        <span className="truncate text-sm text-stone-600">{title}</span>
        <a href="/v1/openapi.json" className="ml-auto shrink-0 text-sm text-teal-800 underline">
          OpenAPI JSON
        </a>
      </div>
    </header>
  );
}
