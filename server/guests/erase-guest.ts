import { and, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  auditLog,
  events,
  folioCharges,
  groups,
  guestPreferences,
  invoices,
  guests,
  idempotencyKeys,
  mailOutbox,
  payments,
  refunds,
  reservations,
  roomMoves,
  webhookAttempts,
  webhookDeliveries,
} from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { findGuest } from "./guests";
import { erasedName, presentGuest } from "./present";

const placeholder = "[erased]";
const erasedMailText = "The content of this e-mail was erased at the guest's request.";

type Term = { value: string; word: boolean };
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One pattern for every personal value: names as whole words (a guest called "Ann" leaves
 * "Annex" alone), contact and free text wherever they occur; longest first, case-insensitive.
 */
function personalPattern(terms: Term[]): RegExp | null {
  const unique = [...new Map(terms.filter((t) => t.value.trim().length > 0).map((t) => [t.value.toLowerCase(), t])).values()];
  if (!unique.length) return null;
  unique.sort((a, b) => b.value.length - a.value.length);
  const parts = unique.map((t) => (t.word ? `(?<![\\p{L}\\p{N}])${escapeRegExp(t.value)}(?![\\p{L}\\p{N}])` : escapeRegExp(t.value)));
  return new RegExp(parts.join("|"), "giu");
}

/** A JSON value with the guest anonymised: an object that is the guest (by id) loses its names and contact; every string loses the personal values. */
function scrubJson(value: unknown, guestId: string, pattern: RegExp): unknown {
  if (typeof value === "string") return value.replace(pattern, placeholder);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, guestId, pattern));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = scrubJson(v, guestId, pattern);
    // Their preferences (an event's payload, a trail entry, an echoed delivery): emptied whole, as erasure leaves them.
    if (out.object === "guest_preferences" && out.guest_id === guestId) Object.assign(out, { allergies: [], room: {}, loyalty: {} });
    if (out.id === guestId) {
      if ("first_name" in out) out.first_name = erasedName.first;
      if ("last_name" in out) out.last_name = erasedName.last;
      if ("email" in out) out.email = null;
      if ("phone" in out) out.phone = null;
      if ("address" in out) out.address = null;
    }
    return out;
  }
  return value;
}

type PreferencesLike = { allergies?: unknown; room?: unknown; loyalty?: unknown };

/** The free text of a guest's preferences: allergies, and the words of their room wishes and loyalty data. */
const preferenceTexts = (p: PreferencesLike): string[] => [
  ...(Array.isArray(p.allergies) ? p.allergies : []),
  ...Object.values(p.room && typeof p.room === "object" ? p.room : {}),
  ...Object.values(p.loyalty && typeof p.loyalty === "object" ? p.loyalty : {}),
].filter((v): v is string => typeof v === "string");

/** Stored text that may be JSON (a replayed response): scrubbed as JSON where it parses, as text otherwise. */
function scrubStoredText(text: string, guestId: string, pattern: RegExp): string {
  try {
    return JSON.stringify(scrubJson(JSON.parse(text), guestId, pattern));
  } catch {
    return text.replace(pattern, placeholder);
  }
}

/** Rows whose text mentions any of the guest's ids (ids are unique random strings, so this never matches another guest's rows). */
const mentionsAny = (column: SQL | PgColumn, ids: string[]) => or(...ids.map((id) => sql`${column}::text like ${`%${id}%`}`))!;

/**
 * Erases a guest on request (docs/decisions.md, "A guest's data"): their names, contact,
 * preferences and free text are anonymised everywhere they are stored — the guest row, their
 * reservations' notes, stored event payloads (and so every webhook body built from them),
 * webhook receivers' answers, replayable idempotent responses, their e-mails, the audit trail —
 * in one transaction, which also writes `guest.erased`. Folios, charges, payments and refunds
 * stay (a hotel must keep them), referring to the anonymised guest. A guest in house is refused.
 * Erasing an erased guest changes nothing and answers it again.
 */
export async function eraseGuest({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    // An OAuth install may erase only a guest of the properties it was granted (403 otherwise), as it may read only those.
    const guest = await findGuest(tx, tenant, id, { forUpdate: true });
    if (guest.erasedAt) return { guest, erased: false };
    const stays = await tx.select().from(reservations).where(eq(reservations.guestId, guest.id));
    const inHouse = stays.find((r) => r.status === "checked_in");
    if (inHouse) {
      throw new ApiError("invalid_state_transition", "The guest is in house; a guest's data can be erased once they have checked out.");
    }
    const [prefs] = await tx.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
    // Preferences they had before the current ones (an allergy since removed) are still in past
    // events and trail entries, and in what receivers echoed: their words are erased too.
    const own = <T extends { accountId: PgColumn; livemode: PgColumn }>(t: T) =>
      and(eq(t.accountId, tenant.accountId), eq(t.livemode, tenant.livemode));
    const pastPreferences: PreferencesLike[] = [
      ...(
        await tx
          .select({ object: events.object })
          .from(events)
          .where(and(own(events), eq(events.type, "guest.preferences_updated"), sql`${events.object}->>'guest_id' = ${guest.id}`))
      ).map((e) => e.object),
      ...(
        await tx
          .select({ before: auditLog.before, after: auditLog.after })
          .from(auditLog)
          .where(and(own(auditLog), eq(auditLog.objectId, guest.id), like(auditLog.action, "guest.preferences_%")))
      ).flatMap((e) => [e.before, e.after] as (PreferencesLike | null)[]).filter((p): p is PreferencesLike => !!p && typeof p === "object"),
    ];
    const reservationIds = stays.map((r) => r.id);
    const folioIds = stays.map((r) => r.folioId);
    const paymentRows = folioIds.length ? await tx.select().from(payments).where(inArray(payments.folioId, folioIds)) : [];
    const moves = reservationIds.length ? await tx.select().from(roomMoves).where(inArray(roomMoves.reservationId, reservationIds)) : [];

    const word = (value: string | null | undefined): Term[] => (value ? [{ value, word: true }] : []);
    const text = (value: string | null | undefined): Term[] => (value ? [{ value, word: false }] : []);
    const pattern = personalPattern([
      ...text(`${guest.firstName} ${guest.lastName}`),
      ...word(guest.firstName),
      ...word(guest.lastName),
      ...text(guest.email),
      ...text(guest.phone),
      ...Object.values(guest.address ?? {}).flatMap((v) => (v && v.length > 2 ? text(v) : [])),
      ...[...(prefs ? [prefs] : []), ...pastPreferences].flatMap(preferenceTexts).flatMap(text),
      ...stays.flatMap((r) => [...text(r.notes), ...text(r.cancellationReason), ...Object.values(r.metadata).flatMap(text)]),
      ...moves.flatMap((m) => text(m.reason)),
    ])!;
    const ids = [guest.id, ...reservationIds, ...folioIds, ...paymentRows.map((p) => p.id), ...stays.flatMap((r) => (r.groupId ? [r.groupId] : []))];
    const now = new Date();

    // The guest row: names replaced, contact gone (the search text is generated from them).
    const [erased] = await tx
      .update(guests)
      .set({ firstName: erasedName.first, lastName: erasedName.last, email: null, emailKey: null, phone: null, address: null, erasedAt: now, updatedAt: now })
      .where(eq(guests.id, guest.id))
      .returning();
    await tx.delete(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
    if (reservationIds.length) {
      await tx.update(reservations).set({ notes: null, cancellationReason: null, metadata: {} }).where(inArray(reservations.id, reservationIds));
      await tx.update(roomMoves).set({ reason: null }).where(inArray(roomMoves.reservationId, reservationIds));
    }
    // Financial rows keep every amount; only words a clerk typed about the guest go.
    for (const c of folioIds.length ? await tx.select().from(folioCharges).where(inArray(folioCharges.folioId, folioIds)) : []) {
      const description = c.description.replace(pattern, placeholder);
      if (description !== c.description) await tx.update(folioCharges).set({ description }).where(eq(folioCharges.id, c.id));
    }
    for (const p of paymentRows) {
      const bankReference = p.bankReference?.replace(pattern, placeholder) ?? null;
      const failureMessage = p.failureMessage?.replace(pattern, placeholder) ?? null;
      if (bankReference !== p.bankReference || failureMessage !== p.failureMessage)
        await tx.update(payments).set({ bankReference, failureMessage }).where(eq(payments.id, p.id));
    }
    if (paymentRows.length) {
      for (const r of await tx
        .select()
        .from(refunds)
        .where(
          inArray(
            refunds.paymentId,
            paymentRows.map((p) => p.id),
          ),
        )) {
        const reason = r.reason?.replace(pattern, placeholder) ?? null;
        if (reason !== r.reason) await tx.update(refunds).set({ reason }).where(eq(refunds.id, r.id));
      }
    }

    // Issued invoices keep their numbers and amounts, made out to the anonymised guest: no name, contact or address.
    for (const inv of folioIds.length ? await tx.select({ id: invoices.id, snapshot: invoices.snapshot }).from(invoices).where(inArray(invoices.folioId, folioIds)) : []) {
      const snapshot = scrubJson(inv.snapshot, guest.id, pattern) as Record<string, unknown>;
      if (snapshot.guest) snapshot.guest = { name: `${erasedName.first} ${erasedName.last}`, address: null, email: null, phone: null };
      await tx.update(invoices).set({ snapshot }).where(eq(invoices.id, inv.id));
    }
    // A group named after the guest ("Lovelace group") loses the name, and its notes the guest's words.
    const groupIds = [...new Set(stays.flatMap((r) => (r.groupId ? [r.groupId] : [])))];
    for (const g of groupIds.length ? await tx.select().from(groups).where(inArray(groups.id, groupIds)) : []) {
      const name = g.name.replace(pattern, placeholder);
      const notes = g.notes?.replace(pattern, placeholder) ?? null;
      if (name !== g.name || notes !== g.notes) await tx.update(groups).set({ name, notes }).where(eq(groups.id, g.id));
    }

    // Stored event payloads: webhook bodies are built from these rows, so replays and backfills send the anonymised guest.
    const touchedEvents = await tx
      .select({ id: events.id, object: events.object })
      .from(events)
      .where(and(own(events), mentionsAny(events.object, ids)));
    for (const e of touchedEvents) {
      await tx
        .update(events)
        .set({ object: scrubJson(e.object, guest.id, pattern) as Record<string, unknown> })
        .where(eq(events.id, e.id));
    }
    if (touchedEvents.length) {
      // What receivers answered to those deliveries may echo the body back.
      const attempts = await tx
        .select({ id: webhookAttempts.id, responseBody: webhookAttempts.responseBody })
        .from(webhookAttempts)
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .where(
          inArray(
            webhookDeliveries.eventId,
            touchedEvents.map((e) => e.id),
          ),
        );
      for (const a of attempts) {
        const responseBody = scrubStoredText(a.responseBody, guest.id, pattern);
        if (responseBody !== a.responseBody) await tx.update(webhookAttempts).set({ responseBody }).where(eq(webhookAttempts.id, a.id));
      }
    }
    // Responses kept for idempotent replays.
    const stored = await tx
      .select()
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.accountId, tenant.accountId),
          eq(idempotencyKeys.livemode, tenant.livemode),
          mentionsAny(idempotencyKeys.responseBody, ids),
        ),
      );
    for (const k of stored) {
      await tx
        .update(idempotencyKeys)
        .set({ responseBody: scrubStoredText(k.responseBody!, guest.id, pattern) })
        .where(and(eq(idempotencyKeys.accountId, k.accountId), eq(idempotencyKeys.livemode, k.livemode), eq(idempotencyKeys.key, k.key)));
    }
    // The audit trail keeps who did what and when; the guest's words in its objects go.
    const trail = await tx
      .select({ id: auditLog.id, before: auditLog.before, after: auditLog.after })
      .from(auditLog)
      .where(
        and(
          own(auditLog),
          or(inArray(auditLog.objectId, ids), mentionsAny(sql`coalesce(${auditLog.before}::text, '') || coalesce(${auditLog.after}::text, '')`, ids)),
        ),
      );
    for (const entry of trail) {
      await tx
        .update(auditLog)
        .set({ before: scrubJson(entry.before, guest.id, pattern), after: scrubJson(entry.after, guest.id, pattern) })
        .where(eq(auditLog.id, entry.id));
    }
    // Their e-mails: kept as a record that they were sent, without address or content; any not yet sent never goes.
    for (const m of await tx
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.accountId, tenant.accountId), eq(mailOutbox.guestId, guest.id)))) {
      await tx
        .update(mailOutbox)
        .set({
          to: null,
          subject: m.subject.replace(pattern, placeholder),
          text: erasedMailText,
          html: null,
          nextAttemptAt: null,
          error: m.error?.replace(pattern, placeholder) ?? null,
          attempts: m.attempts.map((a) => ({ ...a, error: a.error?.replace(pattern, placeholder) ?? null })),
        })
        .where(eq(mailOutbox.id, m.id));
    }

    // The event carries the anonymised guest only; the trail says who erased them and when, and nothing of what was erased.
    await recordChange(tx, { tenant, actor }, [{ type: "guest.erased", propertyId: null, object: presentGuest(erased) }], {
      action: "guest.erased",
      objectType: "guest",
      objectId: guest.id,
    });
    return { guest: erased, erased: true };
  });
}
