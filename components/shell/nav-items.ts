import type { Area } from "@/lib/access";

export type NavItem = { href: string; label: string; area: Area; section?: "Hotel" | "Developers" };

/**
 * The dashboard's pages, each under the access area that decides who sees it. A page is
 * listed here once it exists; the layout keeps only the items the signed-in role can use.
 */
export const navItems: NavItem[] = [
  { href: "/", label: "Home", area: "dashboard" },
  { href: "/reservations", label: "Reservations", area: "reservations" },
  { href: "/calendar", label: "Calendar", area: "availability" },
  { href: "/housekeeping", label: "Housekeeping", area: "housekeepingRead" },
  { href: "/guests", label: "Guests", area: "guests" },
  { href: "/rates", label: "Rates", area: "rates" },
  { href: "/reports", label: "Reports", area: "reports" },
  { href: "/receivables", label: "Receivables", area: "receivables" },
  { href: "/settings", label: "Settings", area: "settings" },
  { href: "/settings/property", label: "Property", area: "setup", section: "Hotel" },
  { href: "/settings/room-types", label: "Room types", area: "setup", section: "Hotel" },
  { href: "/settings/rooms", label: "Rooms", area: "setup", section: "Hotel" },
  { href: "/settings/rate-plans", label: "Rate plans", area: "setup", section: "Hotel" },
  { href: "/settings/taxes", label: "Taxes", area: "setup", section: "Hotel" },
  { href: "/developers/webhooks", label: "Webhooks", area: "developers", section: "Developers" },
  { href: "/developers/deliveries", label: "Deliveries", area: "developers", section: "Developers" },
  { href: "/developers/events", label: "Events", area: "developers", section: "Developers" },
  { href: "/developers/api-keys", label: "API keys", area: "developers", section: "Developers" },
  { href: "/developers/apps", label: "OAuth apps", area: "developers", section: "Developers" },
  { href: "/developers/installs", label: "Installed apps", area: "developers", section: "Developers" },
  { href: "/developers/outbox", label: "Mail outbox", area: "developers", section: "Developers" },
  { href: "/docs", label: "API reference", area: "developers", section: "Developers" },
];
