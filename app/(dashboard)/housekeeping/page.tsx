import type { Metadata } from "next";
import { HousekeepingView } from "@/components/housekeeping/housekeeping-view";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Housekeeping" };

// /housekeeping: the board (rooms by status) and the day's assignments by housekeeper
export default async function HousekeepingPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "housekeepingRead")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property yet">Rooms appear here once the account has a property.</EmptyState>;
  return (
    <HousekeepingView
      propertyId={current.id}
      canWrite={can(user.role, "housekeepingWrite")}
      canAssign={can(user.role, "housekeepingAssign")}
      housekeeper={user.role === "housekeeping" ? user.email : null}
    />
  );
}
