import { describe, expect, it } from "vitest";
import { fontFile, scriptRuns } from "@/server/invoices/fonts";

// The invoice's text is cut into runs, each in the part of Noto Sans that draws it (fontsource's
// unicode.json ranges): a character stays with the run before it when that part covers it.

describe("scriptRuns", () => {
  it("keeps Latin text in one run, spaces and digits with their word", () => {
    expect(scriptRuns("Invoice 17, $1,250.00")).toEqual([{ subset: "latin", text: "Invoice 17, $1,250.00" }]);
  });

  it("puts Polish letters outside Latin-1 in Latin Extended, Greek and Cyrillic in their own parts", () => {
    expect(scriptRuns("Łukasz Żółć")).toEqual([
      { subset: "latin-ext", text: "Ł" },
      { subset: "latin", text: "ukasz " },
      { subset: "latin-ext", text: "Ż" },
      { subset: "latin", text: "ó" },
      { subset: "latin-ext", text: "łć" },
    ]);
    // Greek's part has no space or full stop: those are Latin's.
    expect(scriptRuns("Δημήτρης Π.")).toEqual([
      { subset: "greek", text: "Δημήτρης" },
      { subset: "latin", text: " " },
      { subset: "greek", text: "Π" },
      { subset: "latin", text: "." },
    ]);
    expect(scriptRuns("Анна").map((r) => r.subset)).toEqual(["cyrillic"]);
    expect(scriptRuns("").length).toBe(0);
  });

  it("prints a character no part draws (CJK) as U+FFFD, never as a wrong letter", () => {
    expect(scriptRuns("山田 Taro")).toEqual([{ subset: "latin", text: "\ufffd\ufffd Taro" }]);
  });

  it("reads each part's WOFF file", () => {
    for (const subset of ["latin", "latin-ext", "greek", "cyrillic"]) expect(fontFile(subset, 400).subarray(0, 4).toString("latin1")).toBe("wOFF");
    expect(fontFile("latin", 700).subarray(0, 4).toString("latin1")).toBe("wOFF");
  });
});
