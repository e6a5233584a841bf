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

export const weekdayWords: Record<string, string> = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };

/** `snake_case` or `kebab-case` as a sentence's words: "developer_contact" → "Developer contact". */
export const fieldWords = (name: string): string => {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** An enum value in words from its table, else the value's own words ("early_departure" → "Early departure"). */
export const wordFor = (table: Record<string, string>, value: string | null | undefined, none = "—"): string =>
  value == null ? none : (table[value] ?? fieldWords(value));
