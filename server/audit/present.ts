import { isoTime, formatDay, formatMoment, formatTimeOfDay, type TimePlace } from "@/lib/dates";
import { formatMoney, type Money } from "@/lib/money";
import { roleLabels } from "@/lib/access";
import {
  assignmentWords,
  cardWords,
  channelWords,
  fieldWords,
  housekeepingWords,
  paymentStatusWords,
  reservationStatusWords,
  sourceWords,
  weekdayWords,
  wordFor,
} from "@/lib/words";
import type { auditLog } from "@/db/schema";

type AuditRow = typeof auditLog.$inferSelect;
type Fields = Record<string, unknown>;

/** Fields whose value differs between two presented objects (top level), for the trail's "what changed". */
function changedFields(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Fields;
  const b = (after ?? {}) as Fields;
  const ignored = new Set(["updated_at", "object", "livemode"]);
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !ignored.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/**
 * What the trail's sentences need besides the entry: where the property is (zone, number
 * format, currency) and the names of the rooms, room types and rate plans an entry refers to.
 */
export type AuditContext = {
  place: TimePlace & { currency: string };
  rooms: Map<string, string>;
  roomTypes: Map<string, string>;
  ratePlans: Map<string, string>;
};

/** The ids of rooms, room types and rate plans an entry names, so the caller can look their names up. */
export function auditReferences(rows: AuditRow[]) {
  const refs = { rooms: new Set<string>(), roomTypes: new Set<string>(), ratePlans: new Set<string>(), properties: new Set<string>() };
  for (const row of rows) {
    for (const side of [row.before, row.after] as (Fields | null)[]) {
      if (!side) continue;
      if (typeof side.room_id === "string") refs.rooms.add(side.room_id);
      if (typeof side.room_type_id === "string") refs.roomTypes.add(side.room_type_id);
      if (typeof side.rate_plan_id === "string") refs.ratePlans.add(side.rate_plan_id);
      if (typeof side.property_id === "string") refs.properties.add(side.property_id);
      if (Array.isArray(side.rate_plan_ids)) for (const id of side.rate_plan_ids) if (typeof id === "string") refs.ratePlans.add(id);
    }
    if (row.objectType === "room") refs.rooms.add(row.objectId);
    if (row.objectType === "rate_plan") refs.ratePlans.add(row.objectId);
  }
  return refs;
}

/** Each audited action as a headline; an action not listed reads as its own words ("Secret revealed"). */
const titles: Record<string, string> = {
  "reservation.created": "Reservation created",
  "reservation.updated": "Stay changed",
  "reservation.cancelled": "Cancelled",
  "reservation.checked_in": "Checked in",
  "reservation.checked_out": "Checked out",
  "reservation.no_show": "Marked as a no-show",
  "reservation.upgraded": "Upgraded",
  "reservation.room_moved": "Moved to another room",
  "reservation.departure_changed": "Departure changed",
  "reservation.late_check_out_granted": "Late check-out granted",
  "reservation.check_in_refused": "Check-in refused: no ready room",
  "reservation.guaranteed": "Card put on file",
  "reservation.guarantee_confirmed": "Card on file confirmed by the guest",
  "group.created": "Group booked",
  "group.cancelled": "Group cancelled",
  "reservation.charge_added": "Charge added",
  "reservation.payment_taken": "Payment taken",
  "reservation.payment_declined": "Payment declined",
  "reservation.refunded": "Refund made",
  "reservation.payment_captured": "Payment captured",
  "reservation.payment_voided": "Authorization voided",
  "reservation.invoice_issued": "Invoice issued",
  "reservation.credit_note_issued": "Credit note issued",
  "tax.created": "Tax added",
  "tax.updated": "Tax changed",
  "room.created": "Room added",
  "room.updated": "Room changed",
  "room.retired": "Room retired",
  "room_type.created": "Room type added",
  "room_type.updated": "Room type changed",
  "rate_plan.created": "Rate plan added",
  "rate_plan.updated": "Rate plan changed",
  "property.created": "Property added",
  "property.updated": "Property settings changed",
  "booking_engine.updated": "Booking engine changed",
  "inventory_hold.created": "Rooms held back from sale",
  "inventory_hold.released": "Hold released",
  "room.marked_clean": "Marked clean",
  "room.marked_dirty": "Marked dirty",
  "room.marked_inspected": "Marked inspected",
  "room.out_of_order": "Marked out of order",
  "housekeeping_assignment.created": "Assigned",
  "housekeeping_assignment.updated": "Assignment changed",
  "housekeeping_assignment.deleted": "Assignment removed",
  "rate_plan.rates_set": "Rates set",
  "guest.created": "Guest added",
  "guest.updated": "Guest details changed",
  "guest.preferences_replaced": "Preferences changed",
  "guest.preferences_updated": "Preferences changed",
  "guest.erased": "Personal data erased on request",
  "mail_settings.saved": "Mail server settings saved",
  "mail_settings.removed": "Mail server settings removed",
  "webhook_endpoint.event_replayed": "Event sent again",
  "webhook_endpoint.test_event_sent": "Test event sent",
  "api_key.created": "Key created",
  "api_key.revoked": "Key revoked",
  "oauth_app.created": "App created",
  "oauth_app.updated": "App changed",
  "oauth_app.secret_rotated": "Client secret rotated",
  "oauth_app.deleted": "App deleted",
  "oauth_install.installed": "App installed",
  "oauth_install.updated": "App access changed",
  "oauth_install.revoked": "App access revoked",
  "user.invited": "Invited",
  "user.role_changed": "Role changed",
  "user.removed": "Removed",
  "user.sign_in_failed": "Sign-in failed",
  "user.sign_in_locked": "Locked after failed sign-ins",
  "user.sign_in_unlocked": "Sign-in unlocked",
  "account.updated": "Account settings changed",
  "account.plan_changed": "Plan changed",
  "account.sandbox_reset": "Sandbox reset to its seeded hotel",
  "property.day_closed": "Day closed and business date moved on",
};

export const auditTitle = (action: string) => titles[action] ?? fieldWords(action.slice(action.indexOf(".") + 1));

const isMoney = (v: unknown): v is Money =>
  !!v && typeof v === "object" && typeof (v as Money).amount === "number" && typeof (v as Money).currency === "string";
const isoMomentPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;
/** A type-prefixed id (`room_gs33Qj…`, `res_…`): never shown to staff. */
const idPattern = /^[a-z]+(?:_[a-z]+)*_[A-Za-z0-9]{10,}$/;
const quote = (s: string) => `“${s}”`;

/**
 * Any value in a staff member's words: money formatted, moments in the property's zone, dates
 * as dates, lists joined; an id or an object with no known shape reads as null (the caller then
 * says only that it changed), so no id or JSON reaches the screen.
 */
function valueWords(value: unknown, ctx: AuditContext): string | null {
  if (value === null || value === undefined || value === "") return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    if (idPattern.test(value)) return null;
    if (isoMomentPattern.test(value)) return formatMoment(value, ctx.place);
    if (isoDatePattern.test(value)) return formatDay(value, ctx.place.locale, "medium");
    return quote(value);
  }
  if (isMoney(value)) return formatMoney(value, ctx.place.locale);
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    const parts = value.map((v) => valueWords(v, ctx));
    return parts.some((p) => p === null) ? null : parts.join(", ");
  }
  return null;
}

const money = (amount: unknown, ctx: AuditContext) =>
  isMoney(amount)
    ? formatMoney(amount, ctx.place.locale)
    : typeof amount === "number"
      ? formatMoney({ amount, currency: ctx.place.currency }, ctx.place.locale)
      : null;

/** A rate range's value: one amount, or the amounts it varied between ("$227.00 or $189.00, by night"). */
function rateValue(key: string, value: unknown, ctx: AuditContext): string {
  const one = (v: unknown) =>
    v === null || v === undefined ? "none" : key === "amount" ? (money(v, ctx) ?? "none") : typeof v === "boolean" ? (v ? "on" : "off") : String(v);
  if (value && typeof value === "object" && Array.isArray((value as { mixed?: unknown[] }).mixed)) {
    return `${(value as { mixed: unknown[] }).mixed.map(one).join(" or ")}, by night`;
  }
  return one(value);
}

const rateLabels: Record<string, string> = {
  amount: "Rate",
  min_stay: "Minimum stay",
  stop_sell: "Stop-sell",
  closed_to_arrival: "Closed to arrival",
  closed_to_departure: "Closed to departure",
};

/**
 * How a payment was made, as the trail stored it ("visa •••• 4242", "card •••• 0002", "cash",
 * "bank transfer (ref 12)"), in a clerk's words: "Visa ending 4242", "card ending 0002", "cash".
 */
function methodWords(method: unknown): string {
  const text = String(method ?? "");
  const card = /^(\S+) •••• (\d{4})$/.exec(text);
  if (!card) return text;
  const words = cardWords(card[1], card[2]);
  return words.startsWith("Card ") ? `card${words.slice(4)}` : words;
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A time of day the hotel set: the night audit's hour (3), check-in and check-out times ("15:00"). */
const timeWords = (value: unknown, ctx: AuditContext) =>
  typeof value === "number" || (typeof value === "string" && /^\d{1,2}:\d{2}$/.test(value)) ? formatTimeOfDay(value, ctx.place.locale) : "none";

const roomName = (id: unknown, ctx: AuditContext) =>
  typeof id === "string" ? (ctx.rooms.get(id) ? `room ${ctx.rooms.get(id)}` : "a room no longer listed") : null;

/** One changed field as a sentence, or null when the headline already says it (timestamps of the change itself, derived figures). */
function fieldSentence(objectType: string, field: string, before: unknown, after: unknown, ctx: AuditContext, created: boolean): string | null {
  // "Status from Confirmed to In house"; without an earlier value, "Status: In house".
  const change = (label: string, was: string | null, now: string | null) =>
    created || before === undefined ? `${label}: ${now ?? "none"}` : `${label} from ${was ?? "the earlier value"} to ${now ?? "none"}`;
  switch (field) {
    case "id":
    case "object":
    case "created_at":
    case "updated_at":
    case "nights":
    case "nightly":
    case "folio_id":
    case "property_id":
    case "metadata":
    case "checked_in_at":
    case "checked_out_at":
    case "cancelled_at":
    case "guest_id":
      return null;
    case "room_id": {
      const a = roomName(before, ctx);
      const b = roomName(after, ctx);
      if (a && b) return `Moved from ${a} to ${b}`;
      if (b) return `${fieldWords(b)} assigned`;
      if (a) return `${fieldWords(a)} released`;
      return null;
    }
    case "room_type_id": {
      const name = (id: unknown) => (typeof id === "string" ? (ctx.roomTypes.get(id) ?? "a room type no longer listed") : "none");
      return objectType === "rate_plan" ? `Room type: ${name(after ?? before)}` : change("Room type", name(before), name(after));
    }
    case "rate_plan_id": {
      const name = (id: unknown) => (typeof id === "string" ? (ctx.ratePlans.get(id) ?? "a rate plan no longer listed") : "none");
      return change("Rate plan", name(before), name(after));
    }
    case "status": {
      const table = objectType === "housekeeping_assignment" ? assignmentWords : objectType === "reservation" ? reservationStatusWords : {};
      return change("Status", wordFor(table, before as string), wordFor(table, after as string));
    }
    case "housekeeping_status":
      return change("Housekeeping status", wordFor(housekeepingWords, before as string), wordFor(housekeepingWords, after as string));
    case "occupied":
      return after ? "Occupied" : "Vacant";
    case "source":
      return change("Source", wordFor(sourceWords, before as string), wordFor(sourceWords, after as string));
    case "channel":
      return change("Channel", wordFor(channelWords, before as string, "none"), wordFor(channelWords, after as string, "none"));
    case "role":
      return change("Role", roleLabels[before as keyof typeof roleLabels] ?? "none", roleLabels[after as keyof typeof roleLabels] ?? "none");
    case "check_in":
      return change("Arrival", valueWords(before, ctx), valueWords(after, ctx));
    case "check_out":
      return change("Departure", valueWords(before, ctx), valueWords(after, ctx));
    case "out_of_order_until":
      return after ? `Back in service ${valueWords(after, ctx)}` : before ? "No end date for being out of order" : null;
    case "guest": {
      const name = (g: unknown) =>
        g && typeof g === "object" ? `${(g as Fields).first_name ?? ""} ${(g as Fields).last_name ?? ""}`.trim() : "none";
      return change("Guest", name(before), name(after));
    }
    case "audit_hour":
      return change("Night audit hour", timeWords(before, ctx), timeWords(after, ctx));
    case "check_in_time":
      return change("Check-in time", timeWords(before, ctx), timeWords(after, ctx));
    case "check_out_time":
      return change("Check-out time", timeWords(before, ctx), timeWords(after, ctx));
    case "balance":
      return change("Balance", money(before, ctx), money(after, ctx) ?? "none");
    case "charge": {
      const c = after as Fields | string | undefined;
      if (typeof c === "string") return c;
      return c ? `${String(c.description)}: ${money(c.amount, ctx)}` : null;
    }
    case "payment": {
      const p = after as Fields | string | undefined;
      if (typeof p === "string") return p;
      if (!p) return null;
      if (p.declined) return `${capitalized(methodWords(p.method))} declined: ${String(p.declined)}`;
      return `${money(p.amount, ctx)} by ${methodWords(p.method)}${p.status && p.status !== "succeeded" ? ` (${wordFor(paymentStatusWords, p.status as string).toLowerCase()})` : ""}`;
    }
    case "refund": {
      const r = after as Fields | string | undefined;
      if (typeof r === "string") return r;
      return r ? `${money(r.amount, ctx)} refunded${r.reason ? `: ${String(r.reason)}` : ""}` : null;
    }
    case "credit_note": {
      const n = after as Fields | undefined;
      return n ? `Credit note ${String(n.number)} on invoice ${String(n.invoice_number)}: ${money(n.total, ctx)} (${String(n.reason)})` : null;
    }
    case "total":
      return change("Total", money(before, ctx), money(after, ctx));
    case "nights_range": {
      const r = after as { from: string; to: string } | undefined;
      // `to` is the last night, inclusive, as on the rates page.
      return r ? `Nights of ${formatDay(r.from, ctx.place.locale, "medium")} to ${formatDay(r.to, ctx.place.locale, "medium")}` : null;
    }
    case "days_of_week":
      return Array.isArray(after) ? `${after.map((d) => weekdayWords[d as string] ?? String(d)).join(", ")} only` : null;
    case "applies_to":
      // Rows written before the range was stored in parts: codes and ISO dates, nothing for staff.
      return null;
    case "amount":
    case "min_stay":
    case "stop_sell":
    case "closed_to_arrival":
    case "closed_to_departure":
      if (objectType === "rate_plan") return change(rateLabels[field], rateValue(field, before, ctx), rateValue(field, after, ctx));
      break;
    case "path":
      return null;
    case "enabled":
      return objectType === "booking_engine" ? ((after as boolean) ? "Booking page switched on" : "Booking page switched off") : change(fieldWords(field), String(before), String(after));
    case "rate_plan_ids": {
      const names = (v: unknown) => (Array.isArray(v) && v.length ? v.map((id) => ctx.ratePlans.get(String(id)) ?? "a rate plan no longer listed").join(", ") : "none");
      return change("Rates sold", names(before), names(after));
    }
    case "allergies":
    case "room":
    case "loyalty": {
      const describe = (v: unknown) => {
        if (Array.isArray(v)) return v.length ? v.map(String).join(", ") : "none";
        if (v && typeof v === "object") {
          const entries = Object.entries(v as Fields).filter(([, x]) => x !== null && x !== undefined && x !== "");
          return entries.length
            ? entries
                .map(
                  ([k, x]) =>
                    `${fieldWords(k).toLowerCase()} ${Array.isArray(x) ? x.join(", ") : typeof x === "boolean" ? (x ? "yes" : "no") : String(x)}`,
                )
                .join("; ")
            : "none";
        }
        return "none";
      };
      const label = field === "room" ? "Room preferences" : field === "loyalty" ? "Loyalty" : "Allergies";
      return change(label, describe(before), describe(after));
    }
  }
  const a = valueWords(before, ctx);
  const b = valueWords(after, ctx);
  if (b === null || (!created && before !== undefined && a === null)) return `${fieldWords(field)} changed`;
  return change(fieldWords(field), a, b);
}

/** The trail's sentences for one entry: the changes it made, in a staff member's words. */
export function auditSentences(row: Pick<AuditRow, "action" | "objectType" | "before" | "after">, ctx: AuditContext): string[] {
  const before = (row.before ?? {}) as Fields;
  const after = (row.after ?? {}) as Fields;
  const created = !row.before;
  // A creation lists nothing (the headline says it); a deletion neither.
  if (created && row.action.endsWith(".created")) return [];
  if (!row.after) return [];
  const changed = changedFields(row.before, row.after);
  // Rates: which room type first, then the values that changed and the nights they apply to.
  const fields = row.objectType === "rate_plan" ? ["room_type_id", ...changed.filter((f) => f !== "room_type_id")] : changed;
  return fields
    .map((field) => fieldSentence(row.objectType, field, created ? undefined : before[field], after[field], ctx, created))
    .filter((line): line is string => !!line);
}

/** Who, in words: a staff member's e-mail, the API key or app a change came through, or the night audit. */
function actorWords(row: AuditRow): string {
  if (row.actorType === "api_key") return row.actorName ? `the API key “${row.actorName}”` : "an API key";
  if (row.actorType === "oauth_app") return row.actorName ? `the app “${row.actorName}”` : "a connected app";
  if (row.actorType === "booking_engine") return "a guest on the booking engine";
  if (row.actorType === "night_audit") return row.actorEmail ? `the night audit, run by ${row.actorEmail}` : "the night audit";
  return row.actorEmail ?? "a staff member";
}

export const presentAudit = (row: AuditRow, ctx?: AuditContext) => ({
  id: row.id,
  object: "audit_entry" as const,
  action: row.action,
  object_type: row.objectType,
  object_id: row.objectId,
  actor: { type: row.actorType, id: row.actorId, email: row.actorEmail, name: actorWords(row) },
  before: row.before,
  after: row.after,
  changed: changedFields(row.before, row.after),
  /** The headline and the changes as sentences, for staff screens. */
  title: auditTitle(row.action),
  sentences: ctx ? auditSentences(row, ctx) : [],
  livemode: row.livemode,
  created_at: isoTime(row.createdAt),
});
