import type { APIRequestContext } from "./test";
import { addDays, todayIn, v1 } from "./api";
import { cli, uniqueEmail } from "./helpers";

type Role = "owner" | "manager" | "front_desk" | "housekeeping";

/**
 * A hotel in an account of its own, made through the CLI and `/v1` (live, or the sandbox): one
 * staff member of `role`, a property, a Double room type with `rooms`, a "Best available" plan
 * (refundable until 24 hours before, with `plan`'s extra fields, such as its fees) at 120.00 a
 * night for ten nights from today, and `book` for stays from today. A spec's own account keeps a
 * night audit or the sandbox's advance_day away from every other spec's bookings.
 */
export async function hotelOfItsOwn(
  request: APIRequestContext,
  options: { name: string; role: Role; timezone: string; sandbox?: boolean; property?: Record<string, unknown>; plan?: Record<string, unknown>; rooms: string[]; scopes?: string },
) {
  const account = cli<{ id: string }>("accounts", "create", "--name", `${options.name} ${Date.now().toString(36)}`);
  const staff = { email: uniqueEmail(options.role.replace(/_/g, "-")), password: `${options.role}-password-1` };
  cli("users", "create", "--email", staff.email, "--password", staff.password, "--role", options.role, "--account", account.id);
  const key = cli<{ key: string }>("api-keys", "create", "--account", account.id, "--scopes", options.scopes ?? "reservations:read reservations:write rooms:read rooms:write payments:read payments:write").key;
  const api = v1(request, key, options.sandbox ?? false);
  const { timezone } = options;
  const property = await api.post("/properties", { name: options.name, timezone, currency: "USD", ...options.property });
  const today = todayIn(timezone);
  const type = await api.post("/room_types", { property_id: property.id, code: "DBL", name: "Double", max_occupancy: 2 });
  const rooms: { id: string; number: string }[] = [];
  for (const number of options.rooms) rooms.push(await api.post("/rooms", { room_type_id: type.id, number, floor: 1 }));
  const plan = await api.post("/rate_plans", {
    property_id: property.id,
    code: "BAR",
    name: "Best available",
    room_type_ids: [type.id],
    refundable: true,
    cancellation_deadline_hours: 24,
    ...options.plan,
  });
  await api.post(`/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: addDays(today, 10), amount: 12_000 });
  /** A stay from today (or `from` days on) for `nights`, for a guest with a unique e-mail. */
  const book = (first_name: string, last_name: string, nights: number, from = 0): Promise<{ id: string }> =>
    api.post("/reservations", {
      property_id: property.id,
      room_type_id: type.id,
      rate_plan_id: plan.id,
      check_in: addDays(today, from),
      check_out: addDays(today, from + nights),
      adults: 1,
      guest: { first_name, last_name, email: uniqueEmail(last_name.toLowerCase()) },
    });
  return { staff, api, property: property as { id: string }, today, rooms, book, plan: plan as { id: string }, roomType: type as { id: string } };
}
