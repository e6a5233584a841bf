import type { BadgeTone } from "@/components/ui";

export const nightsLabel = (n: number) => `${n} night${n === 1 ? "" : "s"}`;

export const statusLabels: Record<string, { label: string; tone: BadgeTone }> = {
  confirmed: { label: "Confirmed", tone: "blue" },
  checked_in: { label: "In house", tone: "teal" },
  checked_out: { label: "Checked out", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "red" },
  no_show: { label: "No-show", tone: "amber" },
};

export const sourceLabels: Record<string, string> = {
  direct: "Direct",
  api: "API",
  phone: "Phone",
  email: "E-mail",
  walk_in: "Walk-in",
  channel: "Channel",
};

export const channelLabels: Record<string, string> = {
  booking_com: "Booking.com",
  expedia: "Expedia",
  airbnb: "Airbnb",
  agoda: "Agoda",
  hotelbeds: "Hotelbeds",
  other: "Other channel",
};

/** Why a room type × rate plan cannot be booked, in a clerk's words (the quote's `reason`). */
export const unbookableLabels: Record<string, string> = {
  no_rate: "No rate loaded for every night",
  stop_sell: "Sales stopped (stop-sell) on a night of the stay",
  closed_to_arrival: "Closed to arrival on this date",
  closed_to_departure: "Closed to departure on this date",
  min_stay: "Shorter than the minimum stay",
  max_occupancy: "Too many guests for this room type",
  no_availability: "Sold out: no room free on every night",
};

export const housekeepingLabels: Record<string, string> = { clean: "Clean", inspected: "Inspected", dirty: "Dirty", "out-of-order": "Out of order" };
