import { amountText } from "@/lib/money";
import { getConfig } from "@/server/config";
import type { presentHotel, searchStays } from "./guest";

type Hotel = ReturnType<typeof presentHotel>;
type Search = Awaited<ReturnType<typeof searchStays>>;

/**
 * Where the server is reached from outside: NEXTAUTH_URL when set (production sets it), else the
 * address the guest's browser asked for (the Host header), so search engines read whole URLs.
 */
export function publicOrigin(host: string | null) {
  const configured = getConfig().NEXTAUTH_URL?.replace(/\/$/, "");
  return configured ?? `http://${host ?? "localhost"}`;
}

/** A price as schema.org reads one: a plain decimal in the currency's units ("240.00"), never minor units. */
const schemaPrice = (m: { amount: number; currency: string }) => amountText(m, "en-US");

/**
 * The search page's schema.org data (JSON-LD): the hotel (name, address, check-in and check-out
 * times, the page's address) and, once dates are searched, an offer per rate shown, priced as the
 * page shows it (the stay's total with taxes), for the room type it is on. The property has no
 * telephone number in its settings, so none is given.
 */
export function searchJsonLd({ hotel, url, search }: { hotel: Hotel; url: string; search: Search | null }) {
  const a = hotel.address;
  const address = a.line1 || a.city || a.postal_code || a.country
    ? {
        "@type": "PostalAddress",
        ...(a.line1 ? { streetAddress: [a.line1, a.line2].filter(Boolean).join(", ") } : {}),
        ...(a.city ? { addressLocality: a.city } : {}),
        ...(a.region ? { addressRegion: a.region } : {}),
        ...(a.postal_code ? { postalCode: a.postal_code } : {}),
        ...(a.country ? { addressCountry: a.country } : {}),
      }
    : undefined;
  const offers =
    search?.rooms.flatMap((room) =>
      room.offers.map((offer) => ({
        "@type": "Offer",
        name: offer.name,
        price: schemaPrice(offer.price.gross),
        priceCurrency: offer.price.gross.currency,
        availability: "https://schema.org/InStock",
        availabilityStarts: search.stay.check_in,
        availabilityEnds: search.stay.check_out,
        url,
        itemOffered: { "@type": "HotelRoom", name: room.name, ...(room.description ? { description: room.description } : {}), occupancy: { "@type": "QuantitativeValue", maxValue: room.max_occupancy } },
      })),
    ) ?? [];
  return {
    "@context": "https://schema.org",
    "@type": "Hotel",
    name: hotel.name,
    url,
    ...(address ? { address } : {}),
    ...(hotel.check_in_time ? { checkinTime: hotel.check_in_time } : {}),
    ...(hotel.check_out_time ? { checkoutTime: hotel.check_out_time } : {}),
    currenciesAccepted: hotel.currency,
    ...(offers.length ? { makesOffer: offers } : {}),
  };
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped, so no hotel name can close the script. */
export const jsonLdText = (data: unknown) => JSON.stringify(data).replace(/</g, "\\u003c");
