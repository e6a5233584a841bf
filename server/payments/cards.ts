/** What a sandbox test card does (contract §6). Any other number is refused in the sandbox. */
export const testCards: Record<string, "succeeds" | "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc"> = {
  "4242424242424242": "succeeds",
  "4000000000000002": "card_declined",
  "4000000000009995": "insufficient_funds",
  "4000000000000069": "expired_card",
  "4000000000000127": "incorrect_cvc",
};

/** The Luhn checksum every real card number satisfies. */
export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** The brand from the number's leading digits (IIN ranges); "unknown" outside them. */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  // Mastercard's 2-series is 2221–2720 on four digits; matching on three took 2220 too.
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(6011|65|64[4-9])/.test(number)) return "discover";
  return "unknown";
}

/** A card is good through the last day of its expiry month. */
export function cardExpired(month: number, year: number, now = new Date()): boolean {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return year < y || (year === y && month < m);
}
