/**
 * The languages the guest pages (the booking engine) speak, and which one a guest gets: the one
 * they switched to (`?lang=`), else the first of their browser's languages (Accept-Language, by
 * its q-values) we speak, else English. The staff dashboard stays in English.
 */
export const guestLocales = ["en", "pt", "es", "fr", "de"] as const;
export type GuestLocale = (typeof guestLocales)[number];
export const defaultGuestLocale: GuestLocale = "en";

/** Each language named in itself, for the switch. */
export const localeNames: Record<GuestLocale, string> = { en: "English", pt: "Português", es: "Español", fr: "Français", de: "Deutsch" };

export const isGuestLocale = (value: unknown): value is GuestLocale => typeof value === "string" && (guestLocales as readonly string[]).includes(value);

/** The guest's language from a `?lang=` choice and the Accept-Language header. */
export function guestLocaleOf(requested: string | null | undefined, acceptLanguage: string | null | undefined): GuestLocale {
  if (isGuestLocale(requested)) return requested;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split("-")[0], weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.language && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isGuestLocale) ?? defaultGuestLocale;
}
