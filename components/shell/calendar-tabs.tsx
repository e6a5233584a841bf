"use client";

import { PageTabs } from "@/components/ui/page-tabs";

const calendarPages = [
  { href: "/calendar", label: "Room types" },
  { href: "/calendar/rooms", label: "Rooms" },
] as const;

/** The two calendars: availability by room type, and the room chart (stays by room). */
export function CalendarTabs() {
  return <PageTabs label="Calendar views" pages={calendarPages} className="mb-4" />;
}
