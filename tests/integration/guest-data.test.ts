import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { folioCharges, folios, guests, mailOutbox, payments, properties, webhookAttempts, webhookDeliveries, webhookEndpoints, events } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays } from "@/lib/dates";
import { newId } from "@/server/ids";
import { createBooking } from "@/server/bookings/book";
import { reservationCreateSchema } from "@/server/reservations/schemas";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";
import { startTestDispatcher, waitFor } from "../support/webhooks";

// Issue 27, points 5 and 6: the guest's confirmation, modification and cancellation e-mails, sent
// through the mail outbox in the change's own transaction; and a guest's data erased on request
// (found nowhere afterwards, the financial records kept) or exported as one document.

let h: Harness;
let caller: Caller;
beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };
const nightly = 12_345;

/** A fresh live property ("Test Inn", USD, New York; no address, so US formats) with 3 rooms at $123.45. */
async function hotel(): Promise<Hotel> {
  const base = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, base.propertyId, base.today, { rooms: 3, amount: nightly, days: 40 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...base, type };
}
const setup = (x: Hotel) => ({ propertyId: x.propertyId, roomTypeId: x.type.roomTypeId, ratePlanId: x.type.ratePlanId });
const mailsOf = (reservationId: string) => h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, reservationId)).orderBy(mailOutbox.createdAt, mailOutbox.id);

// Expected words, from Intl itself (en-US: the property has no country), never from the code under test.
const longDay = (d: string) => new Intl.DateTimeFormat("en-US", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${d}T12:00:00Z`));
const moment = (iso: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso));

const staff = (role: StaffRole) =>
  createCaller({
    db: h.db,
    session: { user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@guest-data.example` }, expires: new Date(Date.now() + 3_600_000).toISOString() },
    livemode: true,
  });

describe("guest e-mails", () => {
  it("a booking, a change of stay and a cancellation each queue the guest's e-mail, with the stay in the hotel's words", async () => {
    const x = await hotel();
    const checkIn = addDays(x.today, 10);
    const booked = ok(
      await h.post("/v1/reservations", bookingBody(setup(x), checkIn, addDays(checkIn, 2), { adults: 2, guest: { first_name: "<b>Zed</b>", last_name: "O'Hara", email: "zed@mail.example" } }), caller),
      201,
    );
    const [confirmation] = await mailsOf(booked.id);
    expect(confirmation).toMatchObject({ kind: "confirmation", to: "zed@mail.example", guestId: booked.guest.id, livemode: true, subject: "Your booking at Test Inn is confirmed", sentAt: null });
    expect(confirmation.nextAttemptAt).not.toBeNull(); // due at once: the worker sends it
    const text = confirmation.text;
    expect(text).toContain("Dear <b>Zed</b> O'Hara,");
    expect(text).toMatch(new RegExp(`Arrival:\\s+${longDay(checkIn)}, from 3:00\\sPM`));
    expect(text).toMatch(new RegExp(`Departure:\\s+${longDay(addDays(checkIn, 2))}, by 11:00\\sAM`));
    expect(text).toMatch(/Nights:\s+2\n/);
    expect(text).toMatch(/Room:\s+Test room\n/);
    expect(text).toMatch(/Guests:\s+2 adults\n/);
    expect(text).toMatch(/Rate:\s+Test rate\n/);
    expect(text).toMatch(/Total:\s+\$246\.90\n/); // 2 × $123.45
    // Refundable until 24 hours before the arrival day begins: midnight, the day before.
    expect(text).toContain(`Free cancellation until ${moment(`${addDays(checkIn, -1)}T00:00:00Z`)} (hotel time).`);
    // The HTML part says the same, with the guest's own text escaped.
    expect(confirmation.html).toContain("Dear &lt;b&gt;Zed&lt;/b&gt; O&#39;Hara,");
    expect(confirmation.html).not.toContain("<b>Zed</b>");
    expect(confirmation.html).toContain("$246.90");

    // A change of stay: a modification mail with the new stay. A change of notes alone: none.
    ok(await h.patch(`/v1/reservations/${booked.id}`, { check_out: addDays(checkIn, 3) }, caller));
    ok(await h.patch(`/v1/reservations/${booked.id}`, { notes: "Quiet room please" }, caller));
    let mails = await mailsOf(booked.id);
    expect(mails.map((m) => m.kind)).toEqual(["confirmation", "modification"]);
    expect(mails[1].subject).toBe("Your booking at Test Inn has changed");
    expect(mails[1].text).toMatch(/Nights:\s+3\n/);
    expect(mails[1].text).toMatch(/Total:\s+\$370\.35\n/);

    ok(await h.post(`/v1/reservations/${booked.id}/cancel`, {}, caller));
    mails = await mailsOf(booked.id);
    expect(mails.map((m) => m.kind)).toEqual(["confirmation", "modification", "cancellation"]);
    expect(mails[2]).toMatchObject({ subject: "Your booking at Test Inn is cancelled", to: "zed@mail.example" });
    expect(mails[2].text).toContain("has been cancelled");

    // The dashboard lists them in words' reach: kind and status, newest first.
    const listed = await staff("front_desk").reservations.mail.list({ id: booked.id });
    expect(listed.map((m) => [m.kind, m.status])).toEqual([
      ["cancellation", "pending"],
      ["modification", "pending"],
      ["confirmation", "pending"],
    ]);
  });

  it("the preview is exactly the mail that is queued", async () => {
    const x = await hotel();
    const booked = ok(await h.post("/v1/reservations", bookingBody(setup(x), addDays(x.today, 3), addDays(x.today, 4), { guest: { first_name: "Pia", last_name: "Preview", email: "pia@mail.example" } }), caller), 201);
    const preview = await staff("front_desk").reservations.mail.preview({ id: booked.id, kind: "confirmation" });
    const [queued] = await mailsOf(booked.id);
    expect(preview).toEqual({ subject: queued.subject, text: queued.text, html: queued.html, to: "pia@mail.example", enabled: true });
  });

  it("none when the property turned them off, none to a guest without an e-mail; sandbox mail is kept, never sent", async () => {
    const x = await hotel();
    const off = ok(await h.patch(`/v1/properties/${x.propertyId}`, { guest_emails: false }, caller));
    expect(off.guest_emails).toBe(false);
    const quiet = ok(await h.post("/v1/reservations", bookingBody(setup(x), addDays(x.today, 5), addDays(x.today, 6), { guest: { first_name: "Ned", last_name: "Nomail", email: "ned@mail.example" } }), caller), 201);
    ok(await h.post(`/v1/reservations/${quiet.id}/cancel`, {}, caller));
    expect(await mailsOf(quiet.id)).toEqual([]);

    ok(await h.patch(`/v1/properties/${x.propertyId}`, { guest_emails: true }, caller));
    await h.db.update(properties).set({ walkInsWithoutEmail: true }).where(eq(properties.id, x.propertyId));
    const walkIn = ok(
      await h.post("/v1/reservations", bookingBody(setup(x), x.today, addDays(x.today, 1), { source: "walk_in", guest: { first_name: "Wally", last_name: "Walkin", phone: "+1 212 555 0188" } }), caller),
      201,
    );
    expect(walkIn.guest.email).toBeNull();
    expect(await mailsOf(walkIn.id)).toEqual([]);

    const sandbox = { token: h.main.token, sandbox: true };
    const property = await sandboxProperty(h, h.main.token);
    const type = await buildRoomType(h, sandbox, property.id, ok(await h.get(`/v1/properties/${property.id}`, sandbox)).business_date, { rooms: 1 });
    const sandboxBooking = ok(
      await h.post("/v1/reservations", bookingBody({ propertyId: property.id, ...type }, addDays(ok(await h.get(`/v1/properties/${property.id}`, sandbox)).business_date, 2), addDays(ok(await h.get(`/v1/properties/${property.id}`, sandbox)).business_date, 3), { guest: { first_name: "Sandy", last_name: "Box", email: "sandy@mail.example" } }), sandbox),
      201,
    );
    const [kept] = await mailsOf(sandboxBooking.id);
    expect(kept).toMatchObject({ kind: "confirmation", livemode: false, to: "sandy@mail.example", nextAttemptAt: null, sentAt: null });
  });

  it("a booking rolled back queues no mail", async () => {
    const x = await hotel();
    const input = reservationCreateSchema.parse(bookingBody(setup(x), addDays(x.today, 7), addDays(x.today, 8), { guest: { first_name: "Rollo", last_name: "Back", email: "rollo@mail.example" } }));
    let id = "";
    await expect(
      h.db.transaction(async (tx) => {
        // The service inside an outer transaction that then fails: its mail goes with it.
        const made = await createBooking({ db: tx as never, tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null }, actor: null, input });
        id = made.reservation.id;
        expect((await tx.select().from(mailOutbox).where(eq(mailOutbox.reservationId, id))).length).toBe(1);
        throw new Error("the change fails after the booking");
      }),
    ).rejects.toThrow("the change fails after the booking");
    expect(id).not.toBe("");
    expect(await mailsOf(id)).toEqual([]);
    // A stay that cannot be sold mails nobody either.
    const count = async () => Number(rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from mail_outbox where "to" = 'rollo@mail.example'`))[0].n);
    expectError(await h.post("/v1/reservations", bookingBody(setup(x), addDays(x.today, 7), addDays(x.today, 8), { adults: 9, guest: { first_name: "Rollo", last_name: "Back", email: "rollo@mail.example" } }), caller), 422, "parameter_invalid", "adults");
    expect(await count()).toBe(0);
  });

  it("is sent by the outbox's worker, and retried like the breaker's notice", { timeout: 60_000 }, async () => {
    const delivered: { to: string; data: string }[] = [];
    let refusals = 2;
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      onRcptTo(address, _session, callback) {
        if (address.address === "retry@mail.example" && refusals-- > 0) return callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
        callback();
      },
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (c: Buffer) => (data += c.toString()));
        stream.on("end", () => {
          delivered.push({ to: session.envelope.rcptTo[0].address, data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    const x = await hotel();
    const booked = ok(await h.post("/v1/reservations", bookingBody(setup(x), addDays(x.today, 4), addDays(x.today, 5), { guest: { first_name: "Rita", last_name: "Retry", email: "retry@mail.example" } }), caller), 201);
    const dispatcher = startTestDispatcher(h.db, { smtpUrl, mailRetrySchedule: [1, 1, 1, 1] });
    try {
      const [mail] = await waitFor(async () => {
        const rows = await mailsOf(booked.id);
        return rows[0]?.sentAt ? rows : undefined;
      }, "the confirmation sent");
      expect(mail.attempts.map((a) => a.error === null)).toEqual([false, false, true]);
      const received = delivered.filter((d) => d.to === "retry@mail.example");
      expect(received).toHaveLength(1);
      expect(received[0].data).toContain("Subject: Your booking at Test Inn is confirmed");
      expect(received[0].data).toContain("text/plain");
      expect(received[0].data).toContain("text/html");
      const listed = await staff("manager").reservations.mail.list({ id: booked.id });
      expect(listed[0].status).toBe("sent");
    } finally {
      await dispatcher.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});

// Distinctive strings: found anywhere after the erasure means the erasure missed a place.
const first = "Quillonaster";
const last = "Vexmoorington";
const email = "quillon.vexmoor@erase-me.example";
const phone = "+1 555 7319 2468";
const address = { line1: "Glimmerquay 41", city: "Thrandlewick", postal_code: "TQ9 4ZX", country: "GB" };
const secrets = [first, last, "erase-me.example", "7319 2468", "73192468", "zorblatine", "VXM-99812", "featherfree-pillows", "vexcrm-77", "Glimmerquay", "Thrandlewick", "TQ9 4ZX"];
// Preferences the guest had before their last ones: in past events, the trail and echoes only.
const pastPreferences = ["plumbrackle", "WQX-30417", "snorvel-downs"];

/** Every text, varchar and json(b) column of every table, searched with SQL for each string: where each is still found. */
async function foundAnywhere(strings: string[]) {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await h.db.execute(sql`
      select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = 'public' and (c.data_type in ('text', 'character varying', 'jsonb', 'json') or c.udt_name in ('_text', '_varchar'))`),
  );
  expect(columns.length).toBeGreaterThan(50);
  // One statement: every column, each string.
  const patterns = `{${strings.map((x) => `"%${x}%"`).join(",")}}`;
  const scans = columns.map(
    ({ table_name, column_name }) =>
      sql`select ${`${table_name}.${column_name}`} as place, ${sql.identifier(column_name)}::text as value from ${sql.identifier(table_name)} where ${sql.identifier(column_name)}::text ilike any(${patterns}::text[])`,
  );
  const rows = rowsOf<{ place: string; value: string }>(await h.db.execute(sql.join(scans, sql` union all `)));
  const found = rows.flatMap((r) => strings.filter((x) => r.value.toLowerCase().includes(x.toLowerCase())).map((x) => `${r.place}: ${x}`));
  return found;
}

describe("a guest's data", () => {
  it("erased on request: found nowhere afterwards, the financial records kept; refused while in house; exported whole", { timeout: 120_000 }, async () => {
    const x = await hotel();
    const booked = ok(
      await h.post(
        "/v1/reservations",
        bookingBody(setup(x), x.today, addDays(x.today, 2), { guest: { first_name: first, last_name: last, email, phone }, notes: `${first} wants featherfree-pillows`, metadata: { crm: "vexcrm-77" } }),
        { ...caller, headers: { "idempotency-key": `erase-${newId("event")}` } },
      ),
      201,
    );
    const guestId = booked.guest.id as string;
    // Earlier preferences, replaced since: each write is a guest.preferences_updated event holding them.
    ok(await h.patch(`/v1/guests/${guestId}/preferences`, { allergies: ["plumbrackle"], room: { bed: "snorvel-downs" }, loyalty: { number: "WQX-30417" } }, caller));
    ok(await h.put(`/v1/guests/${guestId}/preferences`, { allergies: ["zorblatine"], room: { notes: `${last} likes it high` }, loyalty: { program: "Harbor", number: "VXM-99812" } }, caller));
    const preferenceEvents = async () =>
      h.db.select().from(events).where(and(eq(events.type, "guest.preferences_updated"), sql`${events.object}->>'guest_id' = ${guestId}`)).orderBy(events.createdAt);
    const [pastEvent, lastEvent] = await preferenceEvents();
    expect(pastEvent.object).toMatchObject({ allergies: ["plumbrackle"], loyalty: { number: "WQX-30417" } });
    expect(lastEvent.object).toMatchObject({ allergies: ["zorblatine"], loyalty: { number: "VXM-99812" } });
    // The dashboard's audit trail holds the guest's words (a change of phone, before and after).
    await staff("manager").guests.update({ id: guestId, phone: "+1 555 7319 2468" });
    // The postal address the invoice is made out to.
    expect(ok(await h.patch(`/v1/guests/${guestId}`, { address }, caller)).address).toEqual(address);
    // A receiver that echoed an event back (its answer is stored with the attempt).
    const [created] = await h.db.select().from(events).where(and(eq(events.type, "reservation.created"), sql`${events.object}->>'id' = ${booked.id}`));
    const endpointId = newId("webhookEndpoint");
    await h.db.insert(webhookEndpoints).values({ id: endpointId, accountId: h.main.account.id, livemode: true, url: "https://hooks.example.com/echo", enabledEvents: ["*"], apiVersion: created.apiVersion });
    const deliveryId = newId("delivery");
    await h.db.insert(webhookDeliveries).values({ id: deliveryId, accountId: h.main.account.id, livemode: true, endpointId, eventId: created.id, eventType: created.type, eventCreatedAt: created.createdAt, source: "event", status: "succeeded" });
    await h.db.insert(webhookAttempts).values({ id: newId("attempt"), deliveryId, endpointId, number: 1, startedAt: new Date(), latencyMs: 5, responseStatus: 200, responseHeaders: {}, responseBody: JSON.stringify({ echoed: created.object }), outcome: "succeeded", serverError: false });
    // And the past preferences' event, echoed once as JSON and once as plain text.
    for (const [n, responseBody] of [JSON.stringify({ echoed: pastEvent.object }), `got allergies plumbrackle, member WQX-30417`].entries()) {
      const echoId = newId("delivery");
      await h.db.insert(webhookDeliveries).values({ id: echoId, accountId: h.main.account.id, livemode: true, endpointId, eventId: pastEvent.id, eventType: pastEvent.type, eventCreatedAt: pastEvent.createdAt, source: n ? "replay" : "event", status: "succeeded" });
      await h.db.insert(webhookAttempts).values({ id: newId("attempt"), deliveryId: echoId, endpointId, number: 1, startedAt: new Date(), latencyMs: 5, responseStatus: 200, responseHeaders: {}, responseBody, outcome: "succeeded", serverError: false });
    }

    // Check in, an extra and a payment: a stay with financial records.
    ok(await h.post(`/v1/reservations/${booked.id}/check_in`, {}, caller));
    ok(await h.post(`/v1/folios/${booked.folio_id}/charges`, { description: `Minibar for ${last}`, amount: 1_500 }, caller), 201);

    // In house: refused, and nothing changes.
    const guestRow = async () => (await h.db.select().from(guests).where(eq(guests.id, guestId)))[0];
    const before = await guestRow();
    expectError(await h.post(`/v1/guests/${guestId}/erase`, { confirm: true }, caller), 409, "invalid_state_transition");
    await expect(staff("owner").guests.erase({ id: guestId, confirm: true })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await guestRow()).toEqual(before);

    // The export holds everything about the guest.
    const exported = ok(await h.get(`/v1/guests/${guestId}/export`, caller));
    expect(exported).toMatchObject({
      object: "guest_export",
      guest: { id: guestId, first_name: first, last_name: last, email, phone, erased_at: null },
      preferences: { allergies: ["zorblatine"], loyalty: { number: "VXM-99812" } },
      reservations: [{ id: booked.id, notes: `${first} wants featherfree-pillows`, metadata: { crm: "vexcrm-77" } }],
      folios: [{ id: booked.folio_id, charges: expect.arrayContaining([expect.objectContaining({ description: `Minibar for ${last}` })]) }],
      emails: [{ kind: "confirmation", to: email, reservation_id: booked.id }],
    });
    expect(exported.folios[0].charges).toHaveLength(3); // two nights and the minibar
    expect(await staff("manager").guests.export({ id: guestId })).toMatchObject({ guest: { id: guestId } });
    await expect(staff("front_desk").guests.export({ id: guestId })).rejects.toMatchObject({ code: "FORBIDDEN" });

    // Settle and check out: now it may be erased.
    const balance = 2 * nightly + 1_500;
    ok(await h.post("/v1/payments", { reservation_id: booked.id, amount: balance, payment_method: { type: "bank_transfer", reference: `${last} transfer` } }, caller), 201);
    await h.db.execute(sql`update properties set business_date = ${addDays(x.today, 2)} where id = ${x.propertyId}`);
    ok(await h.post(`/v1/reservations/${booked.id}/check_out`, {}, caller));
    expect((await foundAnywhere(secrets)).length).toBeGreaterThan(5);
    // The preferences events hold the allergies and loyalty numbers, past and present, until the erasure.
    const stored = await foundAnywhere([...secrets, ...pastPreferences]);
    for (const secret of ["zorblatine", "VXM-99812", ...pastPreferences]) expect(stored).toContain(`events.object: ${secret}`);
    for (const secret of pastPreferences) expect(stored).toContain(`webhook_attempts.response_body: ${secret}`);
    const invoiceId = ok(await h.get(`/v1/reservations/${booked.id}/folio`, caller)).invoice_id;
    expect(ok(await h.get(`/v1/invoices/${invoiceId}`, caller)).guest).toMatchObject({ name: `${first} ${last}`, address, email });

    // Blank, malformed or unconfirmed bodies erase nobody; the front desk may not.
    for (const raw of ["", "{", "{}", '{"confirm": false}', '{"confirm": true, "reason": "x"}']) {
      const res = await fetch(`${h.baseUrl}/v1/guests/${guestId}/erase`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.main.token}`, "content-type": "application/json" },
        body: new TextEncoder().encode(raw),
      });
      const answer = await res.json();
      expect([400, 422], raw).toContain(res.status);
      expect(answer.error.code, raw).toMatch(/^(parameter_missing|parameter_invalid|parameter_unknown|invalid_json)$/);
    }
    await expect(staff("front_desk").guests.erase({ id: guestId, confirm: true })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await guestRow()).erasedAt).toBeNull();

    const financial = async () => ({
      folio: await h.db.select().from(folios).where(eq(folios.id, booked.folio_id)),
      charges: (await h.db.select({ id: folioCharges.id, amount: folioCharges.amount }).from(folioCharges).where(eq(folioCharges.folioId, booked.folio_id))).sort((a, b) => a.id.localeCompare(b.id)),
      payments: await h.db.select({ id: payments.id, amount: payments.amount, status: payments.status }).from(payments).where(eq(payments.folioId, booked.folio_id)),
    });
    const books = await financial();
    expect(books.charges).toHaveLength(3);

    const erased = ok(await h.post(`/v1/guests/${guestId}/erase`, { confirm: true }, caller));
    expect(erased).toMatchObject({ id: guestId, first_name: "Erased", last_name: "guest", email: null, phone: null, address: null });
    // The invoice keeps its number and amounts, made out to the anonymised guest.
    expect(ok(await h.get(`/v1/invoices/${invoiceId}`, caller))).toMatchObject({ guest: { name: "Erased guest", address: null, email: null, phone: null }, totals: { gross: { amount: 2 * nightly + 1_500 } } });
    expect(Date.parse(erased.erased_at)).not.toBeNaN();

    // Found nowhere in the database, the preferences they had before included.
    expect(await foundAnywhere([...secrets, ...pastPreferences])).toEqual([]);
    // The preferences events stay (their ids, for receivers' deduplication), emptied as erasure leaves the preferences.
    const emptied = await preferenceEvents();
    expect(emptied.map((e) => e.id)).toEqual([pastEvent.id, lastEvent.id]);
    for (const [i, e] of emptied.entries()) {
      const updatedAt = (i ? lastEvent : pastEvent).object.updated_at;
      expect(e.object).toEqual({ object: "guest_preferences", guest_id: guestId, livemode: true, allergies: [], room: {}, loyalty: {}, updated_at: updatedAt });
    }
    // The financial records stay, every amount as it was, the reservation pointing at the anonymised guest.
    expect(await financial()).toEqual(books);
    const reservation = ok(await h.get(`/v1/reservations/${booked.id}`, caller));
    expect(reservation).toMatchObject({ status: "checked_out", guest: { id: guestId, first_name: "Erased", last_name: "guest", email: null }, notes: null, metadata: {}, total: { amount: 2 * nightly } });
    expect(ok(await h.get(`/v1/reservations/${booked.id}/folio`, caller)).balance.amount).toBe(0);
    // The event says so, and carries nothing personal.
    const [event] = await h.db.select().from(events).where(and(eq(events.type, "guest.erased"), sql`${events.object}->>'id' = ${guestId}`));
    expect(event.object).toMatchObject({ object: "guest", id: guestId, first_name: "Erased", last_name: "guest", email: null, phone: null });
    // The mail sent stays as a record, without address or content.
    const [mail] = await mailsOf(booked.id);
    expect(mail).toMatchObject({ to: null, html: null, nextAttemptAt: null });
    // Found no more by search; erasing again changes nothing.
    expect(ok(await h.get(`/v1/guests?search=${last.slice(0, 6)}`, caller)).data).toEqual([]);
    const again = ok(await h.post(`/v1/guests/${guestId}/erase`, { confirm: true }, caller));
    expect(again).toEqual(erased);
    expect((await h.db.select().from(events).where(and(eq(events.type, "guest.erased"), sql`${events.object}->>'id' = ${guestId}`))).length).toBe(1);
    // The export now shows the anonymised guest, the stay and its folio.
    const after = ok(await h.get(`/v1/guests/${guestId}/export`, caller));
    expect(after).toMatchObject({ guest: { first_name: "Erased", email: null }, preferences: { allergies: [] }, reservations: [{ id: booked.id }], folios: [{ id: booked.folio_id }] });
  });

  it("erased by owners and managers from the dashboard, audited without the erased data", async () => {
    const x = await hotel();
    const booked = ok(await h.post("/v1/reservations", bookingBody(setup(x), addDays(x.today, 3), addDays(x.today, 4), { guest: { first_name: "Olwen", last_name: "Ownerase", email: "olwen@mail.example" } }), caller), 201);
    const guest = await staff("owner").guests.erase({ id: booked.guest.id, confirm: true });
    expect(guest).toMatchObject({ first_name: "Erased", email: null });
    const trail = rowsOf<{ action: string; t: string }>(
      await h.db.execute(
        sql`select action, coalesce(before::text, '') || coalesce(after::text, '') as t from audit_log where object_id in (${booked.guest.id}, ${booked.id}) order by created_at, action`,
      ),
    );
    // The booking through /v1 wrote the reservation's and the new guest's entries; the erasure its own.
    expect(trail.map((e) => e.action).sort()).toEqual(["guest.created", "guest.erased", "reservation.created"]);
    for (const entry of trail) expect(entry.t).not.toMatch(/Olwen|Ownerase|olwen@/);
    // Unknown guest: 404.
    expectError(await h.post(`/v1/guests/gst_doesnotexist/erase`, { confirm: true }, caller), 404, "resource_missing", "id");
  });
});
