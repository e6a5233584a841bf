// Every confirmed reservation, page after page (the client follows next_cursor), then the first 50.
import Innkeep from "@innkeep/node";

const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_BASE_URL });

let nights = 0;
for await (const reservation of innkeep.reservations.list({ status: "confirmed", limit: 100 })) {
  nights += (Date.parse(reservation.check_out) - Date.parse(reservation.check_in)) / 86_400_000;
}
console.log(`${nights} nights booked`);

const first50 = await innkeep.reservations.list().toArray({ limit: 50 });
console.log(first50.map((r) => `${r.id} ${r.check_in}`).join("\n"));
