"use client";

import { useId, useState } from "react";
import { Card } from "@/components/ui";
import { CopyButton } from "@/components/ui/copy-button";
import { searchBoxSnippet, type SnippetWords } from "@/lib/booking-snippet";
import { guestLocales, localeNames, type GuestLocale } from "@/lib/guest-locale";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";
import pt from "@/messages/pt.json";

/** The search box's words in each language the guest pages speak (the catalogues' "snippet"). */
const words: Record<GuestLocale, SnippetWords> = { en: en.snippet, pt: pt.snippet, es: es.snippet, fr: fr.snippet, de: de.snippet };

/**
 * Settings → Booking engine: the search box for the hotel's own website, in the language of that
 * website; the owner copies its HTML and pastes it where the site allows HTML. A guest's dates and
 * party open the booking page's search in a new tab.
 */
export function SearchBoxCard({ url }: { url: string }) {
  const [locale, setLocale] = useState<GuestLocale>("en");
  const id = useId();
  const snippet = searchBoxSnippet({ url, locale, words: words[locale] });
  return (
    <Card title="Search box for your website">
      <div className="space-y-3 text-sm">
        <p className="text-stone-700">Paste this into your website: guests choose their dates and party there, and the booking page opens with the rooms free for them.</p>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={`${id}-lang`} className="text-stone-700">
            Language of your website
          </label>
          <select
            id={`${id}-lang`}
            value={locale}
            onChange={(e) => setLocale(e.target.value as GuestLocale)}
            className="rounded-md border border-stone-300 bg-white px-2 py-1.5 text-sm focus:border-teal-600 focus:ring-2 focus:ring-teal-600 focus:outline-none"
          >
            {guestLocales.map((l) => (
              <option key={l} value={l}>
                {localeNames[l]}
              </option>
            ))}
          </select>
        </div>
        <pre data-testid="search-box-code" className="overflow-x-auto rounded-md bg-stone-100 p-3 font-mono text-xs break-all whitespace-pre-wrap text-stone-800">
          {snippet}
        </pre>
        <CopyButton text={snippet} label="Copy search box code" />
      </div>
    </Card>
  );
}
