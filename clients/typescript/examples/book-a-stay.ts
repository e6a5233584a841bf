// Book a stay in the sandbox: pick a room type, quote it, book with only the required fields,
// take a cash payment. INNKEEP_API_KEY=hk_… INNKEEP_BASE_URL=http://localhost:3000 npx tsx examples/book-a-stay.ts
import Innkeep, { ConflictError } from "@innkeep/node";

const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_BASE_URL, environment: "sandbox" });

const [property] = (await innkeep.properties.list({ limit: 1 })).data;
const [roomType] = (await innkeep.roomTypes.list({ property_id: property.id, limit: 1 })).data;
const [ratePlan] = (await innkeep.ratePlans.list({ property_id: property.id, limit: 1 })).data;
const checkIn = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const checkOut = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);

try {
  const stay = await innkeep.reservations.create({
    property_id: property.id,
    guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    check_in: checkIn,
    check_out: checkOut,
    room_type_id: roomType.id,
    rate_plan_id: ratePlan.id,
    adults: 2,
  });
  const payment = await innkeep.payments.create({ reservation_id: stay.id, payment_method: { type: "cash" } });
  console.log(`${stay.id} booked, ${payment.amount.amount / 100} ${payment.amount.currency} paid (request ${innkeep.lastResponse?.requestId})`);
} catch (error) {
  if (error instanceof ConflictError) console.log(`Not bookable: ${error.code} (${error.message})`);
  else throw error;
}
