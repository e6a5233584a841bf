// What staff must never read (issue 23): an id, an ISO timestamp, an enum value, JSON or a
// minor-unit amount; and what issue 39 still found: a night or date as the API writes it, a card
// as "visa •••• 4242", the validator's "Invalid input: expected number", an hour as a bare number,
// a scope code, a policy said twice, a rate restriction as a code ("CTA"). Shared by the page scan in staff-words.spec.ts and the specs
// that walk a day.

const faults: [string, RegExp][] = [
  ["an id", /\b[a-z]{2,}(?:_[a-z]+)*_[A-Za-z0-9]{10,}\b/],
  ["an ISO timestamp", /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/],
  ["an enum value", /\b[a-z]+(?:_[a-z]+)+\b/],
  ["JSON", /[{[]\s*"[^"]*"\s*:/],
  ["a date as the API writes it", /\b(?:night|nights|arrival|departure|of|on|until|from|to) \d{4}-\d{2}-\d{2}\b/],
  ["a card as the API names it", /\b(?:visa|mastercard|amex|discover|card) •••• \d{4}/],
  ["the validator's words", /Invalid input: expected|expected (?:number|string), received/],
  ["an hour as a bare number", /\b[Hh]our from \d{1,2} to \d{1,2}\b/],
  ["a scope code", /\b(?:reservations|rooms|payments|reports):(?:read|write)\b|\bwebhooks:manage\b/],
  ["a policy said twice", /\b(non-refundable) · \1\b/i],
  ["a rate restriction's code", /\b(?:CTA|CTD)\b/],
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
