"use client";

import { useId, useMemo, useState } from "react";

export type SearchEntry = { href: string; title: string; detail: string; group: string };

/**
 * Finds an operation, a webhook event, a schema, a section of the conventions or a client library by
 * any word of its title, path or group. Results are links into the page (a client's guide: its own
 * page); Enter follows the first.
 */
export function DocsSearch({ entries }: { entries: SearchEntry[] }) {
  const [query, setQuery] = useState("");
  const id = useId();
  const results = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return [];
    return entries.filter((e) => words.every((w) => `${e.title} ${e.detail} ${e.group}`.toLowerCase().includes(w))).slice(0, 12);
  }, [entries, query]);
  return (
    <div role="search" className="relative">
      <label htmlFor={id} className="sr-only">
        Search the API reference
      </label>
      <input
        id={id}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || !results[0]) return;
          // An entry of this page is an anchor; a client library's guide is a page of its own.
          const { href } = results[0];
          if (href.startsWith("#")) window.location.hash = href.slice(1);
          else window.location.assign(href);
        }}
        placeholder="Search operations, events, schemas…"
        autoComplete="off"
        aria-controls={`${id}-results`}
        className="w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 placeholder:text-stone-500 focus:border-teal-700 focus:outline-2 focus:outline-teal-700"
      />
      <div id={`${id}-results`} aria-live="polite">
        {query.trim() ? (
          results.length ? (
            <ul className="mt-2 max-h-80 overflow-y-auto rounded-md border border-stone-200 bg-white text-sm shadow-sm">
              {results.map((r) => (
                <li key={r.href}>
                  <a href={r.href} onClick={() => setQuery("")} className="block px-3 py-2 hover:bg-stone-50 focus:bg-stone-100">
                    <span className="block font-medium text-stone-900">{r.title}</span>
                    <span className="block truncate font-mono text-xs text-stone-600">
                      {r.group} · {r.detail}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-stone-600">Nothing matches “{query.trim()}”.</p>
          )
        ) : null}
      </div>
    </div>
  );
}
