import { headers } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { defaultGuestLocale, isGuestLocale } from "@/lib/guest-locale";

/** The header proxy.ts sets on the guest pages' requests: the language chosen for them. */
export const localeHeader = "x-innkeep-locale";

// next-intl's per-request configuration: the guest pages' language (proxy.ts picks it from `?lang=`
// and Accept-Language) and its catalogue; every other page is in English.
export default getRequestConfig(async () => {
  const asked = (await headers()).get(localeHeader);
  const locale = isGuestLocale(asked) ? asked : defaultGuestLocale;
  return { locale, messages: (await import(`../messages/${locale}.json`)).default };
});
