import type { GuestLocale } from "./guest-locale";

/** The words of the search box, in the language of the hotel's website (messages/<lang>.json, "snippet"). */
export type SnippetWords = { checkIn: string; checkOut: string; adults: string; children: string; submit: string };

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const options = (from: number, to: number, chosen: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i)
    .map((n) => `<option${n === chosen ? " selected" : ""}>${n}</option>`)
    .join("");

/**
 * The search box a hotel pastes into its own website: a plain HTML form (no script, nothing
 * loaded from us until the guest searches) whose GET lands on the booking page with the dates and
 * party chosen, `<url>?lang=…&check_in=…&check_out=…&adults=…&children=…`, in a new tab. Labels
 * wrap their fields, so each is named for screen readers; inline styles, as a pasted snippet
 * cannot rely on the site's style sheet. Ids are unique per engine, should a page hold two.
 */
export function searchBoxSnippet({ url, locale, words }: { url: string; locale: GuestLocale; words: SnippetWords }) {
  const field = "display:flex;flex-direction:column;gap:4px;font-size:14px";
  const input = "padding:8px;border:1px solid #a8a29e;border-radius:6px;font:inherit;color:#1c1917;background:#fff";
  return [
    `<form action="${escapeHtml(url)}" method="get" target="_blank" lang="${locale}" style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end;font-family:sans-serif;color:#1c1917">`,
    `  <input type="hidden" name="lang" value="${locale}">`,
    `  <label style="${field}">${escapeHtml(words.checkIn)} <input type="date" name="check_in" required style="${input}"></label>`,
    `  <label style="${field}">${escapeHtml(words.checkOut)} <input type="date" name="check_out" required style="${input}"></label>`,
    `  <label style="${field}">${escapeHtml(words.adults)} <select name="adults" style="${input}">${options(1, 8, 2)}</select></label>`,
    `  <label style="${field}">${escapeHtml(words.children)} <select name="children" style="${input}">${options(0, 6, 0)}</select></label>`,
    `  <button type="submit" style="padding:10px 18px;border:0;border-radius:6px;background:#0f766e;color:#fff;font:inherit;font-size:14px;cursor:pointer">${escapeHtml(words.submit)}</button>`,
    `</form>`,
  ].join("\n");
}
