"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cx } from "@/components/ui";

const calendarPages = [
  { href: "/calendar", label: "Room types" },
  { href: "/calendar/rooms", label: "Rooms" },
] as const;

/** The two calendars: availability by room type, and the room chart (stays by room). */
export function CalendarTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Calendar views" className="mb-4 border-b border-stone-200">
      <ul className="-mb-px flex flex-wrap gap-x-1">
        {calendarPages.map((page) => {
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
