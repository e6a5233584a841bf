// What staff must never read (issue 23): an id, an ISO timestamp, an enum value, JSON or a
// minor-unit amount. Shared by the page scan in staff-words.spec.ts and the specs that walk a day.

const faults: [string, RegExp][] = [
  ["an id", /\b[a-z]{2,}(?:_[a-z]+)*_[A-Za-z0-9]{10,}\b/],
  ["an ISO timestamp", /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
  ["an enum value", /\b[a-z]+(?:_[a-z]+)+\b/],
  ["JSON", /[{[]\s*"[^"]*"\s*:/],
  ["an amount in minor units", /minor units?|(?:[$€£¥]|USD|EUR)\s?-?\d{4,}(?![\d.,])|-?\d{4,}(?![\d.,])\s?(?:USD|EUR)/],
];

/** What is wrong with a page's text; e-mail addresses (staff sign in with them) are not words to judge. */
export function scan(text: string): string[] {
  const words = text.replace(/\S+@\S+/g, " ");
  return faults.flatMap(([what, pattern]) => {
    const hit = pattern.exec(words);
    return hit ? [`${what}: "${words.slice(Math.max(0, hit.index - 30), hit.index + hit[0].length + 30).replace(/\s+/g, " ")}"`] : [];
  });
}
