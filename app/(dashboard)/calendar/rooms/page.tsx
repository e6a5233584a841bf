import type { Metadata } from "next";
import { TapeChart } from "@/components/reservations/tape-chart";
import { CalendarTabs } from "@/components/shell/calendar-tabs";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Room chart" };

// /calendar/rooms: the tape chart, rooms × nights, where the front desk moves and resizes stays
export default async function RoomChartPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "reservations")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property yet">The room chart appears once the account has a property.</EmptyState>;
  return (
    <>
      <CalendarTabs />
      <TapeChart propertyId={current.id} />
    </>
  );
}
