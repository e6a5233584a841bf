import { randomUUID } from "node:crypto";
import { expect, type APIRequestContext } from "./test";

/** A small `/v1` client for specs that make their own data (live data set unless `sandbox`). */
export function v1(request: APIRequestContext, key: string, sandbox = false) {
  const headers = { authorization: `Bearer ${key}`, ...(sandbox ? { "service-environment": "sandbox" } : {}) };
  return {
    async get<T = any>(path: string): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await request.get(`/v1${path}`, { headers });
      expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
      return res.json();
    },
    async post<T = any>(path: string, body: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await request.post(`/v1${path}`, { headers: { ...headers, "idempotency-key": randomUUID() }, data: body });
      expect(res.status(), `POST ${path}: ${await res.text()}`).toBeLessThan(300);
      return res.json();
    },
    async patch<T = any>(path: string, body: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await request.patch(`/v1${path}`, { headers, data: body });
      expect(res.status(), `PATCH ${path}: ${await res.text()}`).toBe(200);
      return res.json();
    },
  };
}

/**
 * A property's "today": its open business date, as the API serves it (the day still open between
 * midnight and the audit hour, or ahead of the calendar after advance_day), else its calendar date.
 */
export const businessDayOf = (property: { timezone: string; business_date?: string | null }) => property.business_date ?? todayIn(property.timezone);

/** Today's date in a time zone, as `YYYY-MM-DD`. */
export const todayIn = (timezone: string) => new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
export const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Zones a whole number of hours apart, from UTC−10 to UTC+14. */
const zones = [
  "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Phoenix", "America/Regina", "America/Bogota", "America/La_Paz",
  "America/Sao_Paulo", "America/Noronha", "Atlantic/Cape_Verde", "Africa/Abidjan", "Africa/Lagos", "Africa/Johannesburg", "Asia/Riyadh",
  "Asia/Dubai", "Asia/Karachi", "Asia/Dhaka", "Asia/Bangkok", "Asia/Singapore", "Asia/Tokyo", "Australia/Brisbane", "Pacific/Noumea",
  "Pacific/Fiji", "Pacific/Tongatapu", "Pacific/Kiritimati",
];
/** The hour of the day now in a time zone, 0–23. */
export const hourIn = (zone: string) => Number(new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", hourCycle: "h23" }).format(new Date()));
/** The zone (of those above) where the local time now is nearest `hour` (e.g. 15.5: half past three). */
export const zoneNearHour = (hour: number) => [...zones].sort((a, b) => Math.abs(hourIn(a) - hour) - Math.abs(hourIn(b) - hour))[0];

/**
 * A two-night stay in the demo hotel's Double room on its BAR plan, a few days ahead (a random
 * day, so specs running side by side rarely meet), booked through `/v1` with `api`.
 */
export async function bookDemoStay(api: ReturnType<typeof v1>, guest: { first_name: string; last_name: string; email: string }, extra: Record<string, unknown> = {}) {
  const property = (await api.get("/properties")).data[0];
  const roomType = (await api.get(`/room_types?property_id=${property.id}&limit=100`)).data.find((t: { code: string }) => t.code === "DBL");
  const plan = (await api.get(`/rate_plans?property_id=${property.id}&limit=100`)).data.find((p: { code: string }) => p.code === "BAR");
  const checkIn = addDays(businessDayOf(property), 3 + Math.floor(Math.random() * 20));
  return api.post("/reservations", { property_id: property.id, room_type_id: roomType.id, rate_plan_id: plan.id, check_in: checkIn, check_out: addDays(checkIn, 2), adults: 1, guest, ...extra });
}
