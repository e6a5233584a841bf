/**
 * Staff words for the API's enum values, shared by the dashboard's pages, the audit trail's
 * sentences and the staff CSV: a value the API writes as `walk_in` is "Walk-in" on every screen.
 */

export const reservationStatusWords: Record<string, string> = {
  confirmed: "Confirmed",
  checked_in: "In house",
  checked_out: "Checked out",
  cancelled: "Cancelled",
  no_show: "No-show",
};

export const sourceWords: Record<string, string> = {
  direct: "Direct",
  api: "API",
  phone: "Phone",
  email: "E-mail",
  walk_in: "Walk-in",
  channel: "Channel",
  booking_engine: "Booking engine",
};

export const channelWords: Record<string, string> = {
  booking_com: "Booking.com",
  expedia: "Expedia",
  airbnb: "Airbnb",
  agoda: "Agoda",
  hotelbeds: "Hotelbeds",
  other: "Other channel",
};

export const housekeepingWords: Record<string, string> = { clean: "Clean", inspected: "Inspected", dirty: "Dirty", "out-of-order": "Out of order" };

export const assignmentWords: Record<string, string> = { pending: "To do", in_progress: "In progress", done: "Done" };

export const paymentStatusWords: Record<string, string> = {
  succeeded: "Paid",
  failed: "Declined",
  authorized: "Authorized",
  pending: "Pending",
  voided: "Voided",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
};

export const guestMailKindWords: Record<string, string> = { confirmation: "Confirmation", modification: "Change of booking", cancellation: "Cancellation" };

export const guestMailStatusWords: Record<string, string> = { sent: "Sent", pending: "Queued", failed: "Failed", kept: "Not sent" };
export const taxKindWords: Record<string, string> = { percentage: "Percentage", per_night: "Per night", per_person_per_night: "Per guest per night" };

export const taxTargetWords: Record<string, string> = { room_nights: "Room nights", other_charges: "Other charges" };

export const weekdayWords: Record<string, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

/** Card networks by the names their cardholders know them by. */
export const cardBrandWords: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
};

/** A card as a clerk reads it: "Visa ending 4242"; "Card ending 0002" when the network is unknown. */
export const cardWords = (brand: string | null | undefined, last4: string): string => `${(brand && cardBrandWords[brand.toLowerCase()]) || "Card"} ending ${last4}`;

/** `snake_case` or `kebab-case` as a sentence's words: "developer_contact" → "Developer contact". */
export const fieldWords = (name: string): string => {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An enum value in words from its table, else the value's own words ("early_departure" → "Early departure"). */
export const wordFor = (table: Record<string, string>, value: string | null | undefined, none = "—"): string =>
  value == null ? none : (table[value] ?? fieldWords(value));

/** A contract error as the dashboard received it. */
export type StaffErrorInput = { code: string | null; param: string | null; message: string; amount?: { amount: number; currency: string } | null };

const isoDateInText = /\b(\d{4}-\d{2}-\d{2})\b/g;
const enumWordTables = [reservationStatusWords, housekeepingWords, assignmentWords, paymentStatusWords];

/**
 * The one place that turns the contract's errors into a staff member's words: an amount the
 * error is about in the property's format, dates in words, enum values ("checked_in",
 * "checked-in") as their words, and the validator's and API's phrasing ("Invalid parameter
 * 'amount': …", "Too small: expected number to be >=0") as a plain sentence.
 */
export function staffErrorMessage(error: StaffErrorInput, { money, day }: { money: (m: { amount: number; currency: string }) => string; day: (date: string) => string }): string {
  const { code, amount } = error;
  if (code === "balance_outstanding" && amount) {
    // The API's refusal of an early (or late) check-out tells what today's check-out would change first.
    const moved = /^Checking out today ends the stay on (\d{4}-\d{2}-\d{2}) instead of (\d{4}-\d{2}-\d{2})/.exec(error.message);
    const story = moved ? `Checking out today ends the stay on ${day(moved[1])} instead of ${day(moved[2])}, so ` : "";
    return amount.amount > 0
      ? `${story ? `${story}the guest then owes` : "The guest still owes"} ${money(amount)}. Take a payment before checking out.`
      : `${story ? `${story}the guest is then owed` : "The guest is owed"} ${money({ ...amount, amount: -amount.amount })}. Refund it to their payment before checking out.`;
  }
  if (code === "amount_exceeds_refundable" && amount) return `At most ${money(amount)} of this payment can still be refunded.`;
  if (code === "amount_exceeds_balance" && amount) return `The invoice leaves ${money(amount)} due; take at most that.`;
  if (code === "too_many_requests") return "Too many requests just now. Wait a moment and try again.";
  if (code === "internal_error") return "Something went wrong on our side. It has been logged; try again.";
  if (code === "service_unavailable") return "The service is busy. Try again in a moment.";
  if (code === "resource_missing") return "This no longer exists. It may have been removed; refresh the page.";
  let text = error.message
    .replace(/^Invalid parameter '([^']*)': /, (_, param: string) => `${fieldWords(param.split(".").at(-1) ?? param)} `)
    .replace(/Too small: expected (?:number|bigint) to be >=\s?(\S+?)\.?$/, "must be at least $1.")
    .replace(/Too big: expected (?:number|bigint) to be <=\s?(\S+?)\.?$/, "must be at most $1.")
    // zod's type errors ("Invalid input: expected number, received null"): what the field takes, in words.
    .replace(/Invalid input: expected (?:number|bigint|int), received \w+\.?$/, "must be a number.")
    .replace(/Invalid input: expected (?:string|boolean|array|object), received \w+\.?$/, "is missing or not valid.")
    .replace(/ \(minor units\)/g, "")
    // The API names a parameter beside its words ("the arrival date (check_in)"): staff read the words.
    .replace(/ \((?:[a-z]+_)+[a-z]+\)/g, "")
    .replace(isoDateInText, (d) => day(d));
  for (const table of enumWordTables) {
    for (const [value, words] of Object.entries(table)) {
      if (!/[_-]/.test(value) && table !== reservationStatusWords) continue;
      text = text.replace(new RegExp(`\\b${value.replace(/[_-]/g, "[_-]")}\\b`, "g"), words.toLowerCase());
    }
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const pluralRules = new Intl.PluralRules("en-US");

/**
 * The phrase the number asks for, by the language's plural rules (Intl.PluralRules):
 * `inflect(1, { one: "delivery is held", other: "deliveries are held" })`.
 */
export const inflect = (n: number, forms: { one: string; other: string }): string => (pluralRules.select(n) === "one" ? forms.one : forms.other);

/** The count with its noun in the number it asks for: "1 night", "2 nights", "3 children" (`other` defaults to `one` + "s"). */
export const plural = (n: number, one: string, other = `${one}s`): string => `${n} ${inflect(n, { one, other })}`;
