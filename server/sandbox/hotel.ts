import type { Executor } from "@/db/client";
import { properties, roomTypes, rooms, type HousekeepingStatus } from "@/db/schema";
import type { Address } from "@/db/schema/properties";
import { newId } from "@/server/ids";
import type { Tenant } from "@/server/tenancy";

export type RoomTypeSpec = { code: string; name: string; count: number; maxOccupancy: number; baseOccupancy: number; amenities: string[]; description: string };
export type HotelSpec = { name: string; timezone: string; currency: string; address: Address; floors: number; roomTypes: RoomTypeSpec[] };

/** The sandbox hotel of contract §8: 40 rooms on floors 1–4. */
export const sandboxHotel: HotelSpec = {
  name: "Sandbox Harbor Hotel",
  timezone: "America/New_York",
  currency: "USD",
  address: { line1: "1 Harbor Way", city: "Boston", region: "MA", postal_code: "02110", country: "US" },
  floors: 4,
  roomTypes: [
    { code: "KING", name: "King", count: 20, maxOccupancy: 2, baseOccupancy: 2, amenities: ["wifi", "tv", "desk"], description: "One king bed." },
    { code: "QQ", name: "Double Queen", count: 12, maxOccupancy: 4, baseOccupancy: 2, amenities: ["wifi", "tv"], description: "Two queen beds." },
    { code: "DLX", name: "Deluxe King", count: 6, maxOccupancy: 3, baseOccupancy: 2, amenities: ["wifi", "tv", "minibar", "harbor view"], description: "King bed, sofa bed, harbor view." },
    { code: "STE", name: "Suite", count: 2, maxOccupancy: 4, baseOccupancy: 2, amenities: ["wifi", "tv", "minibar", "kitchenette", "harbor view"], description: "Separate living room." },
  ],
};

/** The live demo property of the seeded account: a small city hotel. */
export const demoHotel: HotelSpec = {
  name: "Innkeep Demo Hotel",
  timezone: "Europe/Lisbon",
  currency: "EUR",
  address: { line1: "Rua das Flores 12", city: "Lisboa", postal_code: "1200-195", country: "PT" },
  floors: 3,
  roomTypes: [
    { code: "DBL", name: "Double", count: 8, maxOccupancy: 2, baseOccupancy: 2, amenities: ["wifi"], description: "One double bed." },
    { code: "TWN", name: "Twin", count: 4, maxOccupancy: 2, baseOccupancy: 2, amenities: ["wifi"], description: "Two single beds." },
  ],
};

/** Creates a property with its room types and rooms; rooms cycle through housekeeping states. */
export async function createHotel(db: Executor, tenant: Tenant, spec: HotelSpec, now = new Date()) {
  const tenantCols = { accountId: tenant.accountId, livemode: tenant.livemode };
  const [property] = await db
    .insert(properties)
    .values({ id: newId("property"), ...tenantCols, name: spec.name, timezone: spec.timezone, currency: spec.currency, address: spec.address, createdAt: now, updatedAt: now })
    .returning();
  const types = spec.roomTypes.map((t) => ({
    id: newId("roomType"),
    ...tenantCols,
    propertyId: property.id,
    code: t.code,
    name: t.name,
    description: t.description,
    maxOccupancy: t.maxOccupancy,
    baseOccupancy: t.baseOccupancy,
    amenities: t.amenities,
  }));
  await db.insert(roomTypes).values(types);
  const total = spec.roomTypes.reduce((n, t) => n + t.count, 0);
  const perFloor = Math.ceil(total / spec.floors);
  const statuses: HousekeepingStatus[] = ["clean", "inspected", "dirty", "clean", "inspected"];
  let index = 0;
  const roomRows = types.flatMap((type, t) =>
    Array.from({ length: spec.roomTypes[t].count }, () => {
      const floor = Math.floor(index / perFloor) + 1;
      const number = `${floor}${String((index % perFloor) + 1).padStart(2, "0")}`;
      const housekeepingStatus = statuses[index % statuses.length];
      index++;
      return { id: newId("room"), ...tenantCols, propertyId: property.id, roomTypeId: type.id, number, floor, housekeepingStatus };
    }),
  );
  await db.insert(rooms).values(roomRows);
  return { property, roomTypes: types, rooms: roomRows };
}
