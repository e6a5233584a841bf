import { erasedName } from "@/server/guests/present";

/** What a free-text value that named the erased guest reads afterwards: the whole value, never a part of it. */
export const erasedText = "[erased]";

/** The invoice's party after erasure. */
export const erasedParty = { name: `${erasedName.first} ${erasedName.last}`, address: null, email: null, phone: null };

/**
 * Whose data is erased, and how to tell when a person's free text names them. Erasure goes by
 * field (docs/decisions.md, "Erasing a guest goes by field"): the fields that hold the guest's
 * data are known, and each is replaced whole. Ids, timestamps, amounts, codes and everything
 * else are never searched, so a guest called "0" or "2026" leaves them as they were.
 */
export type ErasureScope = {
  guestId: string;
  reservationIds: ReadonlySet<string>;
  folioIds: ReadonlySet<string>;
  paymentIds: ReadonlySet<string>;
  groupIds: ReadonlySet<string>;
  /** Whether a person's free text (a charge they typed, a refund's reason, a group's name) names the guest. */
  namesThem: (text: string) => boolean;
};

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A test for free text: does it contain one of the guest's personal values (names, contact,
 * address, preferences, notes) as a whole word, case-insensitively? "Ann" names "Dinner for Ann"
 * but not "Annex"; "0" names "Table 0" but not "10" or an id. A text that names them is then
 * replaced whole.
 */
export function namesAny(values: Iterable<string>): (text: string) => boolean {
  const unique = [...new Set([...values].map((v) => v.trim().toLowerCase()).filter((v) => v.length > 0))];
  if (!unique.length) return () => false;
  unique.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(unique.map((v) => `(?<![\\p{L}\\p{N}])${escapeRegExp(v)}(?![\\p{L}\\p{N}])`).join("|"), "iu");
  return (text) => pattern.test(text);
}

/** A free-text value: replaced whole when it names the guest, kept otherwise. */
export const freeText = <T>(value: T, scope: ErasureScope): T | typeof erasedText =>
  typeof value === "string" && scope.namesThem(value) ? erasedText : value;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const has = (set: ReadonlySet<string>, v: unknown) => typeof v === "string" && set.has(v);

/** An invoice line after erasure (a stored snapshot's or a presented invoice's): only what staff typed (an extra) can name the guest. */
const invoiceLine = (line: unknown, scope: ErasureScope) =>
  isObject(line) && line.kind === "extra" ? { ...line, description: freeText(line.description, scope) } : line;

/** The invoice body after erasure: made out to the anonymised guest, the lines' own words checked. */
export function eraseInvoiceBody<T extends Json>(body: T, scope: ErasureScope): T {
  return { ...body, ...("guest" in body && { guest: { ...erasedParty } }), ...(Array.isArray(body.lines) && { lines: body.lines.map((l) => invoiceLine(l, scope)) }) };
}

/**
 * The rules, by the API's own objects (each presented object names itself with `object`): what a
 * resource of the guest's holds of them, and what it holds afterwards.
 */
function eraseObject(o: Json, scope: ErasureScope): Json {
  // The guest, whole or as a reservation's `guest` (which has no `object`): names replaced, no contact.
  if (o.id === scope.guestId) {
    if ("first_name" in o) o.first_name = erasedName.first;
    if ("last_name" in o) o.last_name = erasedName.last;
    for (const key of ["email", "phone", "address"]) if (key in o) o[key] = null;
  }
  switch (o.object) {
    case "guest_preferences":
      // Their preferences, in an event's payload, a trail entry or an echo: emptied, as erasure leaves them.
      if (o.guest_id === scope.guestId) Object.assign(o, { allergies: [], room: {}, loyalty: {} });
      break;
    case "reservation":
      if (has(scope.reservationIds, o.id)) Object.assign(o, { notes: null, cancellation_reason: null, metadata: {} });
      // Another guest's room in their group carries the group's notes, which may name them.
      else if (has(scope.groupIds, o.group_id)) o.notes = freeText(o.notes, scope);
      break;
    case "room_move":
      if (has(scope.reservationIds, o.reservation_id)) o.reason = null;
      break;
    case "folio_charge":
      if (has(scope.folioIds, o.folio_id) && o.kind === "extra") o.description = freeText(o.description, scope);
      break;
    case "payment":
      if (has(scope.paymentIds, o.id)) {
        o.failure_message = freeText(o.failure_message, scope);
        if (isObject(o.payment_method) && "reference" in o.payment_method) o.payment_method = { ...o.payment_method, reference: freeText(o.payment_method.reference, scope) };
      }
      break;
    case "refund":
      if (has(scope.paymentIds, o.payment_id)) o.reason = freeText(o.reason, scope);
      break;
    case "group":
      if (has(scope.groupIds, o.id)) Object.assign(o, { name: freeText(o.name, scope), notes: freeText(o.notes, scope) });
      break;
    case "invoice":
      if (has(scope.folioIds, o.folio_id)) return eraseInvoiceBody(o, scope);
      break;
    case "credit_note":
      // As its invoice: made out to the anonymised guest, and its reason without their words.
      if (has(scope.folioIds, o.folio_id)) return { ...eraseInvoiceBody(o, scope), reason: freeText(o.reason, scope) };
      break;
  }
  return o;
}

/**
 * A stored JSON value (an event's payload, a trail entry's before or after, a replayable answer)
 * with the guest erased from the fields that hold them; every other value unchanged. With
 * `strangers`, any other string that names them is replaced whole too: for what a webhook receiver
 * answered, whose shape is theirs, not the document's.
 */
export function eraseFromJson(value: unknown, scope: ErasureScope, { strangers = false } = {}): unknown {
  if (typeof value === "string") return strangers ? freeText(value, scope) : value;
  if (Array.isArray(value)) return value.map((v) => eraseFromJson(v, scope, { strangers }));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) out[k] = eraseFromJson(v, scope, { strangers });
  return eraseObject(out, scope);
}

/** The words of the shapes the stay's trail writes of its own: a charge added by hand, a payment's method (a transfer's reference), a refund's reason. */
const trailWords: Record<string, string[]> = { charge: ["description"], payment: ["method", "declined"], refund: ["reason"] };

/**
 * A trail entry's object after erasure: the API's objects by their rules, and the words of the
 * shapes the stay's trail writes of its own (`trailWords`), each replaced whole where it names them.
 */
export function eraseTrailObject(value: unknown, scope: ErasureScope): unknown {
  const out = eraseFromJson(value, scope);
  if (!isObject(out)) return out;
  for (const [key, fields] of Object.entries(trailWords)) {
    const part = out[key];
    if (isObject(part)) out[key] = { ...part, ...Object.fromEntries(fields.filter((f) => f in part).map((f) => [f, freeText(part[f], scope)])) };
  }
  return out;
}

/**
 * Stored text that may be JSON, erased where it changes: Innkeep's own answer kept for a replay
 * (the document's objects, by their rules; a body that is not JSON is left), or what a webhook
 * receiver answered (`strangers`: any other string that names the guest goes whole, and a body
 * that is not JSON goes whole where it names them).
 */
export function eraseStoredText(text: string, scope: ErasureScope, { strangers = false } = {}): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return strangers ? freeText(text, scope) : text;
  }
  const erased = JSON.stringify(eraseFromJson(parsed, scope, { strangers }));
  return erased === JSON.stringify(parsed) ? text : erased;
}
