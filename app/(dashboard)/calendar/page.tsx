import type { Metadata } from "next";
import { AvailabilityCalendar } from "@/components/inventory/availability-calendar";
import { CalendarTabs } from "@/components/shell/calendar-tabs";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Calendar" };

// /calendar: room types × nights, sold / held / out of order / available, with each night's bookings
export default async function CalendarPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "availability")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property yet">The calendar appears once the account has a property.</EmptyState>;
  return (
    <>
      <CalendarTabs />
      <AvailabilityCalendar propertyId={current.id} currency={current.currency} canOpenReservations={can(user.role, "reservations")} />
    </>
  );
}
