import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, mailSettings, properties } from "@/db/schema";
import { addDays } from "@/lib/dates";
import type { StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { GuestDataDocument } from "@/components/guests/guest-data-document";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";
import { startTestDispatcher, waitFor } from "../support/webhooks";

// Issue 39, the desk's second month, where it is data: a late check-out says until when (on /v1,
// the desk's tRPC and the lists), the guest's data export reads in words for a person, and an
// owner's own mail server (Settings → Mail) sends the held mail, its password kept sealed, with a
// test send that says the server's refusal in words.

let h: Harness;
let caller: Caller;

const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@month.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const staff = (role: StaffRole) => createCaller({ db: h.db, session: session(role), livemode: true });

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };
async function hotelWith(): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, days: 20 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...hotel, type };
}
const book = (hotel: Hotel, from: string, to: string, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), caller);
const act = (id: string, action: string, body: unknown = {}) => h.post(`/v1/reservations/${id}/${action}`, body, caller);
const setBusinessDate = (hotel: Hotel, date: string) => h.db.update(properties).set({ businessDate: date }).where(eq(properties.id, hotel.propertyId));

describe("a late check-out with a time", () => {
  it("keeps the hour granted (past the hotel's check-out time) and shows it wherever the stay is read", async () => {
    const hotel = await hotelWith();
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 2), { guest: { first_name: "Lena", last_name: "Late", email: "lena@month.example" } }), 201);
    ok(await act(r.id, "check_in"));
    expect(ok(await h.get(`/v1/reservations/${r.id}`, caller)).late_check_out).toBeNull();
    await setBusinessDate(hotel, addDays(T, 2));
    // The property checks out at 11:00 (the default): a late check-out runs past it.
    expectError(await act(r.id, "late_check_out", { until: "10:30" }), 422, "parameter_invalid", "until");
    expectError(await act(r.id, "late_check_out", { until: "11:00" }), 422, "parameter_invalid", "until");
    expectError(await act(r.id, "late_check_out", { until: "2 pm" }), 422, "parameter_invalid", "until");
    const granted = ok(await act(r.id, "late_check_out", { until: "14:00" }));
    expect(granted.late_check_out).toMatchObject({ until: "14:00" });
    expect(Date.parse(granted.late_check_out.granted_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(ok(await h.get(`/v1/reservations/${r.id}`, caller)).late_check_out).toEqual(granted.late_check_out);
    // The desk's lists and the reservation page read the same.
    const departures = await staff("front_desk").reservations.search({ property_id: hotel.propertyId, view: "departures" });
    expect(departures.data.find((x) => x.id === r.id)?.late_check_out).toMatchObject({ until: "14:00" });
    const desk = await staff("front_desk").reservations.get({ id: r.id });
    expect(desk.reservation.late_check_out).toMatchObject({ until: "14:00" });
  });

  it("is granted through the desk's tRPC with its hour, and without one reads as granted with no hour", async () => {
    const hotel = await hotelWith();
    const T = hotel.today;
    const a = ok(await book(hotel, T, addDays(T, 1)), 201);
    const b = ok(await book(hotel, T, addDays(T, 1)), 201);
    ok(await act(a.id, "check_in"));
    ok(await act(b.id, "check_in"));
    await setBusinessDate(hotel, addDays(T, 1));
    const viaDesk = await staff("front_desk").reservations.lateCheckOut({ id: a.id, until: "15:30" });
    expect(viaDesk.late_check_out).toMatchObject({ until: "15:30" });
    const plain = ok(await act(b.id, "late_check_out"));
    expect(plain.late_check_out).toMatchObject({ until: null });
  });
});

describe("the guest's data export, readable", () => {
  it("names what the ids stand for and reads in words: money formatted, dates and moments at the hotel, no id, code or minor unit", async () => {
    const hotel = await hotelWith();
    const r = ok(await book(hotel, addDays(hotel.today, 3), addDays(hotel.today, 5), { guest: { first_name: "Dora", last_name: "Data", email: "dora@month.example" } }), 201);
    ok(await act(r.id, "cancel", { reason: "Plans changed" }));
    // A second stay with its nights on the folio and a cash payment.
    const second = ok(await book(hotel, addDays(hotel.today, 8), addDays(hotel.today, 9), { guest: { first_name: "Dora", last_name: "Data", email: "dora@month.example" } }), 201);
    expect(second.guest.id).toBe(r.guest.id);
    ok(await h.post("/v1/payments", { reservation_id: second.id, amount: 4_250, payment_method: { type: "cash" } }, caller), 201);
    const readable = await staff("manager").guests.exportForReading({ id: r.guest.id });
    const [property] = await h.db.select().from(properties).where(eq(properties.id, hotel.propertyId));
    expect(readable.properties[hotel.propertyId]).toMatchObject({ name: property.name, timezone: hotel.timezone });
    expect(readable.room_types[hotel.type.roomTypeId]).toBe("Test room");
    expect(readable.rate_plans[hotel.type.ratePlanId]).toBe("Test rate");
    expect(readable.data.reservations.map((x) => x.id)).toEqual([r.id, second.id]);
    await expect(staff("front_desk").guests.exportForReading({ id: r.guest.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const html = renderToStaticMarkup(createElement(GuestDataDocument, { readable }));
    const text = html.replace(/<[^>]+>/g, " ").replace(/&#x27;|&apos;/g, "'").replace(/&amp;/g, "&").replace(/\s+/g, " ");
    // The test's own formatter: a US hotel reads "$200.00" and "Tue, Dec 1, 2026".
    const usLong = (date: string) =>
      new Intl.DateTimeFormat("en-US", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
    expect(text).toContain("Personal data held about Dora Data");
    expect(text).toContain(`Test room at ${property.name}: ${usLong(addDays(hotel.today, 3))} to ${usLong(addDays(hotel.today, 5))}`);
    expect(text).toContain("Cancelled");
    expect(text).toContain("Plans changed");
    expect(text).toContain("2 nights");
    expect(text).toContain("$200.00");
    expect(text).toContain("Test rate");
    expect(text).toContain("dora@month.example");
    const usShort = (date: string) => new Intl.DateTimeFormat("en-US", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
    expect(text).toContain(`night of ${usShort(addDays(hotel.today, 8))}`);
    expect(text).toContain("Payment by Cash");
    expect(text).toContain("$42.50");
    expect(text).toContain("Still to pay $57.50");
    // Never an id, a status code, a minor-unit amount or a UTC timestamp.
    expect(text).not.toMatch(/\b(res|gst|fol|prop|rt|rp|chg|pay)_[A-Za-z0-9]+/);
    expect(text).not.toMatch(/\b(?:checked_in|checked_out|no_show|walk_in|room_night|succeeded)\b|\bapi\b|Status cancelled/);
    expect(text).not.toMatch(/\b20000\b|\b10000\b/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  });
});

describe("the hotel's own mail server", () => {
  it("is the owner's: saved with the password sealed, tested against a real server (refusal in words, then success), and the held mail goes through it", { timeout: 90_000 }, async () => {
    const password = "s3cret-Harbour-pass";
    const delivered: { from: string; to: string; data: string }[] = [];
    const smtp = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === "desk@harbour.example" && auth.password === password) return callback(null, { user: auth.username });
        callback(Object.assign(new Error("5.7.8 Username and Password not accepted"), { responseCode: 535 }));
      },
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (c: Buffer) => (data += c.toString()));
        stream.on("end", () => {
          delivered.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo[0].address, data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    try {
      // A guest's confirmation written before any mail server is set: held.
      const hotel = await hotelWith();
      const held = ok(await book(hotel, addDays(hotel.today, 6), addDays(hotel.today, 7), { guest: { first_name: "Hal", last_name: "Held", email: "hal.held@month.example" } }), 201);
      expect(await staff("owner").mail.status()).toMatchObject({ mail_server: false });
      expect((await staff("manager").reservations.mail.list({ id: held.id }))[0]).toMatchObject({ status: "pending", held: true });

      // Owners only: a manager neither reads nor saves nor tests it.
      const settings = { host: "127.0.0.1", port, username: "desk@harbour.example", password: "wrong-password", from_address: "reservations@harbour.example", from_name: "Harbour Hotel", reply_to: "desk@harbour.example" };
      for (const call of [staff("manager").mail.settings(), staff("manager").mail.saveSettings(settings), staff("manager").mail.sendTest({ to: "me@month.example" })]) {
        await expect(call).rejects.toMatchObject({ code: "FORBIDDEN" });
      }
      expect(await staff("owner").mail.settings()).toEqual({ settings: null, process_server: false });
      await expect(staff("owner").mail.saveSettings({ ...settings, host: "smtp example" })).rejects.toThrow();

      const saved = await staff("owner").mail.saveSettings(settings);
      expect(saved).toMatchObject({ host: "127.0.0.1", port, username: "desk@harbour.example", password_set: true, from_address: "reservations@harbour.example", from_name: "Harbour Hotel", reply_to: "desk@harbour.example" });
      expect(JSON.stringify(await staff("owner").mail.settings())).not.toContain("wrong-password");
      const [row] = await h.db.select().from(mailSettings).where(eq(mailSettings.accountId, h.main.account.id));
      expect(row.password).toMatch(/^aesgcm1:/);
      expect(row.password).not.toContain("wrong-password");

      // The server refuses the password: said in words, with the server's own answer.
      const refused = await staff("owner").mail.sendTest({ to: "me@month.example" });
      expect(refused.sent).toBe(false);
      expect(refused).toMatchObject({ reason: expect.stringContaining("refused the user name or password") });
      expect(refused).toMatchObject({ reason: expect.stringContaining("Username and Password not accepted") });
      expect(delivered).toHaveLength(0);

      // The right password (the rest kept as saved when the password is left out next time).
      await staff("owner").mail.saveSettings({ ...settings, password });
      const kept = await staff("owner").mail.saveSettings({ ...settings, password: undefined, from_name: "The Harbour Hotel" });
      expect(kept.password_set).toBe(true);
      const ok1 = await staff("owner").mail.sendTest({ to: "Me@Month.example" });
      expect(ok1).toEqual({ sent: true, to: "me@month.example" });
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({ from: "reservations@harbour.example", to: "me@month.example" });
      expect(delivered[0].data).toContain('From: The Harbour Hotel <reservations@harbour.example>');
      expect(delivered[0].data).toContain("Reply-To: desk@harbour.example");
      expect(delivered[0].data).toContain("Subject: Innkeep test e-mail");

      // No SMTP_URL in this process: the banner's fact turns, and the held confirmation goes through the account's server.
      expect(await staff("owner").mail.status()).toMatchObject({ mail_server: true });
      const dispatcher = startTestDispatcher(h.db, { mailRetrySchedule: [1, 1, 1, 1] });
      try {
        await waitFor(async () => {
          const [mail] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, held.id));
          return mail?.sentAt ? mail : undefined;
        }, "the held confirmation sent");
      } finally {
        await dispatcher.stop();
      }
      const guestMail = delivered.find((d) => d.to === "hal.held@month.example");
      expect(guestMail?.data).toContain("From: The Harbour Hotel <reservations@harbour.example>");
      expect((await staff("manager").reservations.mail.list({ id: held.id }))[0]).toMatchObject({ status: "sent", held: false });
      expect(await staff("owner").mail.status()).toMatchObject({ mail_server: true, waiting: 0 });

      // Nothing answers: said as such.
      await staff("owner").mail.saveSettings({ ...settings, port: 1, password });
      const unreachable = await staff("owner").mail.sendTest({ to: "me@month.example" });
      expect(unreachable).toMatchObject({ sent: false, reason: expect.stringContaining("Nothing answered at 127.0.0.1 on port 1") });

      // Removed: mail is held again.
      expect(await staff("owner").mail.removeSettings()).toEqual({ removed: true });
      expect(await staff("owner").mail.status()).toMatchObject({ mail_server: false });
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
