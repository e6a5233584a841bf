import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The invoice's typeface: Noto Sans from @fontsource/noto-sans, which ships it split by script
 * (Latin, Latin Extended, Greek, Cyrillic, Vietnamese, Devanagari…) as WOFF files with the
 * Unicode ranges each covers (its unicode.json, as a browser reads them). pdfkit embeds WOFF
 * through fontkit, subset to the glyphs used. A text is drawn in runs, each in the first part
 * that covers its characters, so "Łukasz Żółć", "Δημήτρης" and "Анна" print as written.
 * Characters no part covers (Chinese, Japanese, Korean: docs/decisions.md) print as U+FFFD.
 */

const preferred = ["latin", "latin-ext", "greek", "greek-ext", "cyrillic", "cyrillic-ext", "vietnamese", "devanagari"];
export type Weight = 400 | 700;

// Resolved from the working directory at run time, so a bundler leaves the files where npm put them.
const packageDir = () => path.dirname(createRequire(path.join(process.cwd(), "package.json")).resolve("@fontsource/noto-sans/package.json"));

type Part = { subset: string; ranges: [number, number][] };
let loaded: { dir: string; parts: Part[] } | undefined;

/** "U+0460-052F,U+20B4" → [[0x460, 0x52f], [0x20b4, 0x20b4]]. */
const parseRanges = (spec: string): [number, number][] =>
  spec.split(",").map((r) => {
    const [from, to] = r.trim().replace(/^U\+/i, "").split("-");
    return [parseInt(from, 16), parseInt(to ?? from, 16)];
  });

function parts() {
  if (!loaded) {
    const dir = packageDir();
    const unicode = JSON.parse(readFileSync(path.join(dir, "unicode.json"), "utf8")) as Record<string, string>;
    loaded = { dir, parts: preferred.filter((s) => unicode[s]).map((subset) => ({ subset, ranges: parseRanges(unicode[subset]) })) };
  }
  return loaded;
}

const covers = (part: Part, cp: number) => part.ranges.some(([a, b]) => cp >= a && cp <= b);

/** The pdfkit font name of a part and weight, e.g. "noto-greek-700". */
export const fontName = (subset: string, weight: Weight) => `noto-${subset}-${weight}`;

const files = new Map<string, Buffer>();
/** The WOFF file of a part (read once per process). */
export function fontFile(subset: string, weight: Weight): Buffer {
  const name = fontName(subset, weight);
  let file = files.get(name);
  if (!file) files.set(name, (file = readFileSync(path.join(parts().dir, "files", `noto-sans-${subset}-${weight}-normal.woff`))));
  return file;
}

const replacement = "\ufffd";

/**
 * A text cut into runs of one part each: a character goes with the run before it when that
 * part covers it (spaces and digits stay with their word), else to the first part that does.
 */
export function scriptRuns(text: string): { subset: string; text: string }[] {
  const { parts: all } = parts();
  const runs: { subset: string; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = runs.at(-1);
    const current = last && all.find((p) => p.subset === last.subset);
    if (current && covers(current, cp)) {
      last.text += ch;
      continue;
    }
    const part = all.find((p) => covers(p, cp));
    const subset = part?.subset ?? "latin";
    const shown = part ? ch : replacement;
    if (last && last.subset === subset) last.text += shown;
    else runs.push({ subset, text: shown });
  }
  return runs;
}
