import { and, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import {
  auditLog,
  events,
  folioCharges,
  groups,
  guestPreferences,
  invoices,
  creditNotes,
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
import type { Executor } from "@/db/client";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { findGuest } from "@/server/guests/guests";
import { eraseFromJson, eraseInvoiceBody, eraseStoredText, eraseTrailObject, freeText, namesAny, type ErasureScope } from "./erasure-rules";
import { erasedName, presentGuest } from "@/server/guests/present";

/** What an erased guest's e-mail says instead of its content. */
const erasedMailText = "The content of this e-mail was erased at the guest's request.";

type PreferencesLike = { allergies?: unknown; room?: unknown; loyalty?: unknown };

/** The free text of a guest's preferences: allergies, and the words of their room wishes and loyalty data. */
const preferenceTexts = (p: PreferencesLike): string[] => [
  ...(Array.isArray(p.allergies) ? p.allergies : []),
  ...Object.values(p.room && typeof p.room === "object" ? p.room : {}),
  ...Object.values(p.loyalty && typeof p.loyalty === "object" ? p.loyalty : {}),
].filter((v): v is string => typeof v === "string");

/** Rows whose text mentions any of the guest's ids (ids are unique random strings, so this never matches another guest's rows). */
const mentionsAny = (column: SQL | PgColumn, ids: string[]) => or(...ids.map((id) => sql`${column}::text like ${`%${id}%`}`))!;

/**
 * What erasure reaches of a guest: their stays, those stays' payments, and which stored objects
 * are theirs by id (the scope's ids, for `eraseFromJson`). Also what the repair of old damage
 * erases again by (repair-erasure.ts).
 */
export async function holdingsOf(tx: Executor, guestId: string) {
  const stays = await tx.select().from(reservations).where(eq(reservations.guestId, guestId));
  const folioIds = stays.map((r) => r.folioId);
  const paymentRows = folioIds.length ? await tx.select().from(payments).where(inArray(payments.folioId, folioIds)) : [];
  const held: Omit<ErasureScope, "namesThem"> = {
    guestId,
    reservationIds: new Set(stays.map((r) => r.id)),
    folioIds: new Set(folioIds),
    paymentIds: new Set(paymentRows.map((p) => p.id)),
    groupIds: new Set(stays.flatMap((r) => (r.groupId ? [r.groupId] : []))),
  };
  return { stays, paymentRows, held };
}

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
    const { stays, paymentRows, held } = await holdingsOf(tx, guest.id);
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
    const reservationIds = [...held.reservationIds];
    const folioIds = [...held.folioIds];
    const groupIds = [...held.groupIds];
    const moves = reservationIds.length ? await tx.select().from(roomMoves).where(inArray(roomMoves.reservationId, reservationIds)) : [];

    const scope: ErasureScope = {
      ...held,
      // What their free text is searched for: only to decide whether a text a person typed names them (then it goes whole).
      namesThem: namesAny(
        [
          `${guest.firstName} ${guest.lastName}`,
          guest.firstName,
          guest.lastName,
          guest.email,
          guest.phone,
          ...Object.values(guest.address ?? {}),
          ...[...(prefs ? [prefs] : []), ...pastPreferences].flatMap(preferenceTexts),
          ...stays.flatMap((r) => [r.notes, r.cancellationReason, ...Object.values(r.metadata)]),
          ...moves.map((m) => m.reason),
        ].filter((v): v is string => typeof v === "string"),
      ),
    };
    const ids = [guest.id, ...reservationIds, ...folioIds, ...scope.paymentIds, ...groupIds];
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
    // Financial rows keep every amount; only words a clerk typed that name the guest go (the extras', not the generated lines').
    for (const c of folioIds.length ? await tx.select().from(folioCharges).where(and(inArray(folioCharges.folioId, folioIds), eq(folioCharges.kind, "extra"))) : []) {
      const description = freeText(c.description, scope);
      if (description !== c.description) await tx.update(folioCharges).set({ description }).where(eq(folioCharges.id, c.id));
    }
    for (const p of paymentRows) {
      const bankReference = freeText(p.bankReference, scope);
      const failureMessage = freeText(p.failureMessage, scope);
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
        const reason = freeText(r.reason, scope);
        if (reason !== r.reason) await tx.update(refunds).set({ reason }).where(eq(refunds.id, r.id));
      }
    }

    // Issued invoices keep their numbers and amounts, made out to the anonymised guest: no name, contact or address.
    for (const inv of folioIds.length ? await tx.select({ id: invoices.id, snapshot: invoices.snapshot }).from(invoices).where(inArray(invoices.folioId, folioIds)) : []) {
      await tx
        .update(invoices)
        .set({ snapshot: eraseInvoiceBody(inv.snapshot as Record<string, unknown>, scope) as typeof inv.snapshot })
        .where(eq(invoices.id, inv.id));
    }
    // Credit notes likewise, and their reasons without the guest's words.
    for (const note of folioIds.length ? await tx.select({ id: creditNotes.id, snapshot: creditNotes.snapshot }).from(creditNotes).where(inArray(creditNotes.folioId, folioIds)) : []) {
      const body = eraseInvoiceBody(note.snapshot as Record<string, unknown>, scope);
      await tx
        .update(creditNotes)
        .set({ snapshot: { ...body, reason: freeText(body.reason as string, scope) } as typeof note.snapshot })
        .where(eq(creditNotes.id, note.id));
    }
    // A group named after the guest ("Lovelace group") loses the name, and its notes the guest's words.
    for (const g of groupIds.length ? await tx.select().from(groups).where(inArray(groups.id, groupIds)) : []) {
      const name = freeText(g.name, scope);
      const notes = freeText(g.notes, scope);
      if (name !== g.name || notes !== g.notes) await tx.update(groups).set({ name, notes }).where(eq(groups.id, g.id));
    }
    // The other rooms of their groups carry the group's notes, which may name them.
    for (const r of groupIds.length ? await tx.select({ id: reservations.id, notes: reservations.notes }).from(reservations).where(inArray(reservations.groupId, groupIds)) : []) {
      const notes = freeText(r.notes, scope);
      if (notes !== r.notes) await tx.update(reservations).set({ notes }).where(eq(reservations.id, r.id));
    }

    // Stored event payloads: webhook bodies are built from these rows, so replays and backfills send the anonymised guest.
    const touchedEvents = await tx
      .select({ id: events.id, object: events.object })
      .from(events)
      .where(and(own(events), mentionsAny(events.object, ids)));
    for (const e of touchedEvents) {
      await tx
        .update(events)
        .set({ object: eraseFromJson(e.object, scope) as Record<string, unknown> })
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
        const responseBody = eraseStoredText(a.responseBody, scope, { strangers: true });
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
      const responseBody = eraseStoredText(k.responseBody!, scope);
      if (responseBody === k.responseBody) continue;
      await tx
        .update(idempotencyKeys)
        .set({ responseBody })
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
        .set({ before: eraseTrailObject(entry.before, scope), after: eraseTrailObject(entry.after, scope) })
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
          subject: freeText(m.subject, scope),
          text: erasedMailText,
          html: null,
          nextAttemptAt: null,
          error: freeText(m.error, scope),
          attempts: m.attempts.map((a) => ({ ...a, error: freeText(a.error, scope) })),
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
