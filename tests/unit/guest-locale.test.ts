import { readFileSync } from "node:fs";
import { createTranslator } from "next-intl";
import { describe, expect, it } from "vitest";
import { guestLocaleOf, guestLocales } from "@/lib/guest-locale";

// The booking engine's language (issue 38, point 4): the guest's switch first, then their
// browser's languages by preference, then English; and five catalogues that say every message.

describe("the guest's language", () => {
  it("follows a switch to a language we speak, else Accept-Language by its q-values, else English", () => {
    expect(guestLocaleOf("de", "pt-PT,pt;q=0.9")).toBe("de");
    expect(guestLocaleOf("it", "pt-PT,pt;q=0.9")).toBe("pt");
    expect(guestLocaleOf(null, "it-IT,it;q=0.9,fr;q=0.8,en;q=0.7")).toBe("fr");
    expect(guestLocaleOf(null, "en;q=0.5, es-MX;q=0.9")).toBe("es");
    expect(guestLocaleOf(null, "de;q=0, fr")).toBe("fr");
    expect(guestLocaleOf(undefined, "ja, zh-CN")).toBe("en");
    expect(guestLocaleOf(undefined, "")).toBe("en");
    expect(guestLocaleOf(undefined, undefined)).toBe("en");
    expect(guestLocaleOf("", "*")).toBe("en");
  });
});

type Catalogue = { [key: string]: string | Catalogue };
const catalogue = (locale: string): Catalogue => JSON.parse(readFileSync(`messages/${locale}.json`, "utf8"));
const keysOf = (c: Catalogue, prefix = ""): string[] => Object.entries(c).flatMap(([k, v]) => (typeof v === "string" ? [`${prefix}${k}`] : keysOf(v, `${prefix}${k}.`)));
const sample = { hotel: "Casa", dates: "1–3", nights: 2, adults: 2, children: 1, count: 1, amount: "€10", room: "Quarto", rate: "Flex", deadline: "1 Jan", guests: 5, minutes: 14, time: "15:00", name: "Ana", before: "€8", date: "2 Jan", currency: "dólares", day: "1 Jan", price: "€10" };

describe("the catalogues", () => {
  const english = keysOf(catalogue("en")).sort();
  it.each(guestLocales)("%s has every message of the English one, each well-formed, none left in English", (locale) => {
    const messages = catalogue(locale);
    expect(keysOf(messages).sort()).toEqual(english);
    const t = createTranslator({ locale, messages, onError: (error) => { throw error; } });
    for (const key of english) {
      const text = t(key as never, sample as never);
      expect(text.length, key).toBeGreaterThan(0);
      if (locale !== "en" && !["book.meal.all_inclusive", "book.details.email", "book.results.total", "book.confirmed.total", "book.details.phone"].includes(key)) {
        expect(text, `${locale}: ${key} is not translated`).not.toBe(createTranslator({ locale: "en", messages: catalogue("en") })(key as never, sample as never));
      }
    }
  });
});
