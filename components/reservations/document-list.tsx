import { Download } from "lucide-react";

const linkClass =
  "inline-flex min-h-9 items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-teal-800 hover:bg-stone-50 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600";

/**
 * The folio's documents of one kind (its credit notes, its supplementary invoices): each by its
 * number, with its PDF to download. Nothing when there are none.
 */
export function DocumentList({ title, name, pdfPath, testId, documents }: { title: string; name: string; pdfPath: string; testId: string; documents: { id: string; number: number }[] }) {
  if (!documents.length) return null;
  return (
    <section aria-label={title}>
      <h3 className="mb-1 text-xs font-medium uppercase tracking-wide text-stone-500">{title}</h3>
      <ul className="divide-y divide-stone-100">
        {documents.map((d) => (
          <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-1" data-testid={testId}>
            <span>
              {name} {d.number}
            </span>
            <a href={`/${pdfPath}/${d.id}/pdf`} download className={linkClass}>
              <Download className="h-4 w-4" aria-hidden /> Download
              <span className="sr-only">
                {" "}
                {name.toLowerCase()} {d.number}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
