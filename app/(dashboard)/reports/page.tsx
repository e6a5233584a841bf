import type { Metadata } from "next";
import { ReportsView } from "@/components/reports/reports-view";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Reports" };

// /reports: occupancy, revenue and production of the property on screen, with CSV downloads
export default async function ReportsPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "reports")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property in this data set">Reports are per property; this data set has none yet.</EmptyState>;
  return <ReportsView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
