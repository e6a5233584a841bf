"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui";

export const setupPages = [
  { href: "/settings", label: "Account" },
  { href: "/settings/property", label: "Property" },
  { href: "/settings/room-types", label: "Room types" },
  { href: "/settings/rooms", label: "Rooms" },
  { href: "/settings/rate-plans", label: "Rate plans" },
  { href: "/settings/taxes", label: "Taxes" },
] as const;

/** The settings pages, one link each; it wraps on a phone rather than scrolling sideways. */
export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Settings" className="mb-6 border-b border-stone-200">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {setupPages.map((page) => {
          const active = pathname === page.href;
          return (
            <li key={page.href}>
              <Link
                href={page.href}
                aria-current={active ? "page" : undefined}
                className={cx(
                  "inline-block border-b-2 px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
                  active ? "border-teal-700 font-medium text-teal-800" : "border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900",
                )}
              >
                {page.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
