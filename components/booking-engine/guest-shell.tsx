import type { ReactNode } from "react";
import { guestLocales, localeNames, type GuestLocale } from "@/lib/guest-locale";
import { guestQuery } from "./guest-words";

/**
 * The frame of every guest page: the hotel's name, the language switch (links that keep the page
 * and its choices), and the page. No staff navigation, nothing of the dashboard.
 */
export function GuestShell({
  hotel,
  locale,
  languageLabel,
  path,
  query,
  children,
}: {
  hotel: { name: string; city?: string };
  locale: GuestLocale;
  languageLabel: string;
  path: string;
  query: Record<string, string | undefined>;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-stone-50 text-stone-900">
      <header className="border-b border-stone-200 bg-white">
        <div className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-3 px-4 py-4">
          <div>
            <p className="text-lg font-semibold">{hotel.name}</p>
            {hotel.city ? <p className="text-sm text-stone-600">{hotel.city}</p> : null}
          </div>
          <nav aria-label={languageLabel}>
            <ul className="flex flex-wrap gap-1 text-sm">
              {guestLocales.map((l) => (
                <li key={l}>
                  {/* A full load, not a client-side move: the document's own language (<html lang>) changes with it. */}
                  <a
                    href={`${path}${guestQuery({ ...query, lang: l })}`}
                    lang={l}
                    hrefLang={l}
                    aria-current={l === locale ? "true" : undefined}
                    className={
                      l === locale
                        ? "rounded-md bg-teal-700 px-2 py-1 font-medium text-white"
                        : "rounded-md px-2 py-1 text-teal-800 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
                    }
                  >
                    {localeNames[l]}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-6">{children}</main>
    </div>
  );
}
