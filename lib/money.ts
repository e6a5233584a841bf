/**
 * Money as staff read and type it, shared by the server (error words, audit sentences, CSV) and
 * the browser (every page and form). Amounts travel in minor units (contract §1); people see and
 * type them in the property's currency and number format: "1,250.50" in a US hotel, "1.250,50"
 * in a German one, "1,250" yen in a Japanese one. No other module formats or parses money.
 */

export type Money = { amount: number; currency: string };

/** The number format of a place, e.g. "en-US", "de-DE"; always Latin digits. */
export type MoneyLocale = string;

export const defaultLocale: MoneyLocale = "en-US";

const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(currency: string, locale: MoneyLocale): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = currencyFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(`${locale}-u-nu-latn`, { style: "currency", currency });
    currencyFormats.set(key, f);
  }
  return f;
}

const digitsOf = new Map<string, number>();
/** Digits after the decimal separator in a currency's minor unit: 2 for USD and EUR, 0 for JPY, 3 for BHD. */
export const currencyDigits = (currency: string): number => {
  let digits = digitsOf.get(currency);
  if (digits === undefined) digitsOf.set(currency, (digits = currencyFormat(currency, defaultLocale).resolvedOptions().maximumFractionDigits ?? 2));
  return digits;
};

/** Minor units per major unit: 100 for USD, 1 for JPY. */
export const minorPerMajor = (currency: string): number => 10 ** currencyDigits(currency);

/** "$1,250.50" (en-US), "1.250,50 €" (de-DE), "￥1,250" (ja-JP) from minor units. */
export function formatMoney({ amount, currency }: Money, locale: MoneyLocale = defaultLocale): string {
  return currencyFormat(currency, locale).format(amount / minorPerMajor(currency));
}

const plainFormats = new Map<string, Intl.NumberFormat>();
function plainFormat(currency: string, locale: MoneyLocale, grouping: boolean): Intl.NumberFormat {
  const key = `${locale}|${currency}|${grouping}`;
  let f = plainFormats.get(key);
  if (!f) {
    const digits = currencyDigits(currency);
    f = new Intl.NumberFormat(`${locale}-u-nu-latn`, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: grouping });
    plainFormats.set(key, f);
  }
  return f;
}

/**
 * The amount without its currency, as a form's initial text or a tight grid cell: "1250.50"
 * (en-US), "1250,50" (de-DE); `grouping` adds the thousands separators ("1,250.50").
 */
export function amountText({ amount, currency }: Money, locale: MoneyLocale = defaultLocale, { grouping = false } = {}): string {
  return plainFormat(currency, locale, grouping).format(amount / minorPerMajor(currency));
}

/** The amount for a tight grid cell: whole units when it has no cents ("1,250"), else with them ("1,250.50"). */
export function shortAmount({ amount, currency }: Money, locale: MoneyLocale = defaultLocale): string {
  const per = minorPerMajor(currency);
  if (amount % per !== 0) return amountText({ amount, currency }, locale, { grouping: true });
  return new Intl.NumberFormat(`${locale}-u-nu-latn`, { maximumFractionDigits: 0 }).format(amount / per);
}

type Separators = { group: string; decimal: string };
const separatorCache = new Map<string, Separators>();
function separators(locale: MoneyLocale): Separators {
  let s = separatorCache.get(locale);
  if (!s) {
    const parts = new Intl.NumberFormat(`${locale}-u-nu-latn`).formatToParts(1234567.5);
    s = { group: parts.find((p) => p.type === "group")?.value ?? ",", decimal: parts.find((p) => p.type === "decimal")?.value ?? "." };
    separatorCache.set(locale, s);
  }
  return s;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
// Space-like group separators (French, Portuguese, Swiss) are typed as an ordinary space.
const spaces = /[\s\u00a0\u202f]/g;

/**
 * What a person typed, in the property's number format, as minor units; null when it is not an
 * amount in that format. The group separator is only accepted between groups of three digits,
 * and at most the currency's own decimals are accepted, so "12.345" in a US hotel and "12.5" yen
 * are refused rather than read as something else. A leading minus (or −) makes it negative.
 */
export function parseMoney(text: string, currency: string, locale: MoneyLocale = defaultLocale): number | null {
  const { group, decimal } = separators(locale);
  const spaceGroup = spaces.test(group);
  spaces.lastIndex = 0;
  let clean = text.trim().replace(/^[−–]/, "-");
  if (spaceGroup) clean = clean.replace(spaces, " ");
  const g = spaceGroup ? " " : escape(group);
  const d = escape(decimal);
  const digits = currencyDigits(currency);
  const fraction = digits > 0 ? `(?:${d}(\\d{1,${digits}}))?` : "";
  const match = new RegExp(`^(-)?(\\d{1,3}(?:${g}\\d{3})+|\\d+)${fraction}$`).exec(clean);
  if (!match) return null;
  const whole = match[2].split(spaceGroup ? " " : group).join("");
  const minor = Number(whole) * 10 ** digits + Number((match[3] ?? "").padEnd(digits, "0") || "0");
  if (!Number.isSafeInteger(minor)) return null;
  return match[1] && minor !== 0 ? -minor : minor;
}

/** An example amount in the property's format for a hint: "129.00", "129,00", "129". */
export const sampleAmount = (currency: string, locale: MoneyLocale = defaultLocale): string =>
  amountText({ amount: 129 * minorPerMajor(currency), currency }, locale);

const countryLocales = new Map<string, MoneyLocale>();
/**
 * The number format of a property: the main language of its country with the country's
 * conventions ("de-DE" for an address in Germany, "pt-PT" in Portugal), "en-US" without a country.
 */
export function propertyLocale(country: string | null | undefined): MoneyLocale {
  if (!country || !/^[A-Za-z]{2}$/.test(country)) return defaultLocale;
  // Worked out once per country: `maximize` costs a booking's confirmation more than composing it.
  let locale = countryLocales.get(country);
  if (!locale) countryLocales.set(country, (locale = countryLocale(country)));
  return locale;
}

function countryLocale(country: string): MoneyLocale {
  try {
    const region = country.toUpperCase();
    const { language } = new Intl.Locale("und", { region }).maximize();
    return `${language}-${region}`;
  } catch {
    return defaultLocale;
  }
}
