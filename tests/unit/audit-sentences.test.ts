import { describe, expect, it } from "vitest";
import { auditSentences, auditTitle, type AuditContext } from "@/server/audit/present";

const us: AuditContext = {
  place: { timezone: "America/New_York", locale: "en-US", currency: "USD" },
  rooms: new Map([
    ["room_gs33QjAbCdEfGh", "102"],
    ["room_Zx81PqAbCdEfGh", "204"],
  ]),
  roomTypes: new Map([["rt_Kq02LmAbCdEfGh", "Double Queen"]]),
  ratePlans: new Map([["rp_Tt55AbAbCdEfGh", "Best available"]]),
};
const entry = (action: string, objectType: string, before: unknown, after: unknown) => ({ action, objectType, before, after });

describe("the audit trail in sentences", () => {
  it("names rooms by number, not id", () => {
    const lines = auditSentences(
      entry("reservation.updated", "reservation", { room_id: "room_gs33QjAbCdEfGh" }, { room_id: "room_Zx81PqAbCdEfGh" }),
      us,
    );
    expect(lines).toEqual(["Moved from room 102 to room 204"]);
    expect(
      auditSentences(
        entry(
          "reservation.checked_in",
          "reservation",
          { room_id: null, status: "confirmed" },
          { room_id: "room_Zx81PqAbCdEfGh", status: "checked_in" },
        ),
        us,
      ),
    ).toEqual(["Room 204 assigned", "Status from Confirmed to In house"]);
  });

  it("formats money in the property's format, from minor units", () => {
    const lines = auditSentences(
      entry(
        "reservation.payment_taken",
        "reservation",
        { balance: { amount: 83_700, currency: "USD" } },
        {
          balance: { amount: 0, currency: "USD" },
          payment: { amount: { amount: 83_700, currency: "USD" }, method: "visa •••• 4242", status: "succeeded" },
        },
      ),
      us,
    );
    // Issue 39, point 6: the card as a clerk reads it, never the API's brand code and dots.
    expect(lines).toEqual(["Balance from $837.00 to $0.00", "$837.00 by Visa ending 4242"]);
    const de = { ...us, place: { timezone: "Europe/Berlin", locale: "de-DE", currency: "EUR" } };
    const charge = auditSentences(
      entry(
        "reservation.charge_added",
        "reservation",
        { balance: { amount: 0, currency: "EUR" } },
        { balance: { amount: 125_050, currency: "EUR" }, charge: { description: "Minibar", amount: { amount: 125_050, currency: "EUR" } } },
      ),
      de,
    );
    expect(charge.map((l) => l.replace(/\u00a0/g, " "))).toEqual(["Balance from 0,00 € to 1.250,50 €", "Minibar: 1.250,50 €"]);
  });

  it("says a declined card, and the hotel's times of day, in words (issue 39, point 6)", () => {
    const declined = auditSentences(entry("reservation.payment_declined", "reservation", null, { payment: { method: "card •••• 0002", declined: "The card was declined." } }), us);
    expect(declined).toEqual(["Card ending 0002 declined: The card was declined."]);
    const hours = auditSentences(
      entry("property.updated", "property", { audit_hour: 3, check_in_time: "15:00", check_out_time: "11:00" }, { audit_hour: 22, check_in_time: "14:00", check_out_time: "12:30" }),
      us,
    );
    expect(hours).toEqual(["Night audit hour from 3:00 AM to 10:00 PM", "Check-in time from 3:00 PM to 2:00 PM", "Check-out time from 11:00 AM to 12:30 PM"]);
    const de = { ...us, place: { timezone: "Europe/Berlin", locale: "de-DE", currency: "EUR" } };
    expect(auditSentences(entry("property.updated", "property", { audit_hour: 3 }, { audit_hour: 22 }), de)).toEqual(["Night audit hour from 03:00 to 22:00"]);
  });

  it("says a rate change with the values a range varied between", () => {
    const lines = auditSentences(
      entry(
        "rate_plan.rates_set",
        "rate_plan",
        {
          amount: { mixed: [22_700, 18_900] },
          min_stay: 1,
          stop_sell: false,
          closed_to_arrival: false,
          closed_to_departure: false,
          room_type_id: "rt_Kq02LmAbCdEfGh",
        },
        {
          amount: 29_900,
          min_stay: 1,
          stop_sell: false,
          closed_to_arrival: false,
          closed_to_departure: false,
          room_type_id: "rt_Kq02LmAbCdEfGh",
          nights_range: { from: "2026-11-25", to: "2026-11-28" },
          days_of_week: ["fri", "sat"],
        },
      ),
      us,
    );
    expect(lines).toEqual([
      "Room type: Double Queen",
      "Rate from $227.00 or $189.00, by night to $299.00",
      "Nights of Nov 25, 2026 to Nov 28, 2026",
      "Fri, Sat only",
    ]);
  });

  it("tells preferences in words, not JSON", () => {
    const lines = auditSentences(
      entry(
        "guest.preferences_updated",
        "guest",
        { allergies: [], room: { pillow: "firm" }, loyalty: {} },
        { allergies: ["peanuts"], room: { pillow: "soft", high_floor: true }, loyalty: {} },
      ),
      us,
    );
    expect(lines).toEqual(["Allergies from none to peanuts", "Room preferences from pillow firm to pillow soft; high floor yes"]);
  });

  it("shows times in the property's zone and never an id or a raw timestamp", () => {
    // 15:00 UTC on 1 Dec 2026 is 10:00 in New York (EST, UTC−5).
    const lines = auditSentences(
      entry("webhook_endpoint.secret_rotated", "webhook_endpoint", undefined, { previous_secrets_expire_at: "2026-12-01T15:00:00.000Z" }),
      us,
    );
    expect(lines.map((l) => l.replace(/\u202f/g, " "))).toEqual(["Previous secrets expire at: Dec 1, 2026, 10:00 AM"]);
    const generic = auditSentences(
      entry(
        "account.updated",
        "account",
        { developer_contact: "a@x.example", owner_id: "user_Ab12Cd34Ef56" },
        { developer_contact: "b@x.example", owner_id: "user_Zz12Cd34Ef56" },
      ),
      us,
    );
    expect(generic).toEqual(["Developer contact from “a@x.example” to “b@x.example”", "Owner id changed"]);
    expect(auditTitle("room.out_of_order")).toBe("Marked out of order");
    expect(auditTitle("webhook_endpoint.secret_rotated")).toBe("Secret rotated");
  });
});
