import type { Area } from "@/server/staff/access";

export type NavItem = { href: string; label: string; area: Area; section?: "Developers" };

/**
 * The dashboard's pages, each under the access area that decides who sees it. A page is
 * listed here once it exists; the layout keeps only the items the signed-in role can use.
 */
export const navItems: NavItem[] = [
  { href: "/", label: "Home", area: "dashboard" },
  { href: "/guests", label: "Guests", area: "guests" },
  { href: "/rates", label: "Rates", area: "rates" },
  { href: "/reports", label: "Reports", area: "reports" },
  { href: "/settings", label: "Settings", area: "settings" },
  { href: "/docs", label: "API reference", area: "developers", section: "Developers" },
];
