import { expect, type APIRequestContext } from "./test";
import { uniqueEmail } from "./helpers";

/** ISO date `n` days after `iso`. */
export const plusDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

const unique = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

/**
 * A room type of its own (unique code) with `rooms` rooms on the property the dashboard shows
 * first, made through `/v1` with the given key, so a spec never touches another spec's rooms.
 */
export async function ownRoomType(request: APIRequestContext, key: string, options: { rooms?: number; rates?: boolean } = {}) {
  const headers = { authorization: `Bearer ${key}` };
  const post = async (path: string, data: unknown, status = 201) => {
    const res = await request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(status);
    return res.json();
  };
  const properties = await (await request.get("/v1/properties", { headers })).json();
  const property = properties.data[0] as { id: string; timezone: string };
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: property.timezone }).format(new Date());
  const code = `E${unique()}`;
  const type = await post("/v1/room_types", { property_id: property.id, code, name: `Suite ${code}`, max_occupancy: 2 });
  const rooms: { id: string; number: string }[] = [];
  for (let i = 0; i < (options.rooms ?? 1); i++) rooms.push(await post("/v1/rooms", { room_type_id: type.id, number: `${code}-${i + 1}`, floor: 4 }));
  let ratePlanId: string | null = null;
  if (options.rates) {
    const plan = await post("/v1/rate_plans", { property_id: property.id, code: `P${code}`, name: "E2E rate", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
    await post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: plusDays(today, 60), amount: 12_000 }, 200);
    ratePlanId = plan.id;
  }
  return { propertyId: property.id, today, code, roomTypeId: type.id as string, rooms, ratePlanId, post };
}

/**
 * A stay in house from today for two nights (at 120.00 a night), checked into the first of
 * `rooms` rooms of a room type of its own, for a guest "Tess <last>".
 */
export async function stayInHouse(request: APIRequestContext, key: string, last: string, rooms = 3) {
  const setup = await ownRoomType(request, key, { rooms, rates: true });
  const reservation = await setup.post("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Tess", last_name: last, email: uniqueEmail("tess") },
    check_in: setup.today,
    check_out: plusDays(setup.today, 2),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
  });
  await setup.post(`/v1/reservations/${reservation.id}/check_in`, { room_id: setup.rooms[0].id }, 200);
  return { ...setup, reservation: reservation as { id: string }, guest: `Tess ${last}` };
}
