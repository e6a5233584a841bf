"use client";

import { PageTabs } from "@/components/ui/page-tabs";

export const setupPages = [
  { href: "/settings", label: "Account" },
  { href: "/settings/property", label: "Property" },
  { href: "/settings/room-types", label: "Room types" },
  { href: "/settings/rooms", label: "Rooms" },
  { href: "/settings/rate-plans", label: "Rate plans" },
  { href: "/settings/taxes", label: "Taxes" },
  { href: "/settings/booking-engine", label: "Booking engine" },
] as const;

/** The settings pages, one link each. */
export function SettingsTabs() {
  return <PageTabs label="Settings" pages={setupPages} className="mb-6" />;
}
