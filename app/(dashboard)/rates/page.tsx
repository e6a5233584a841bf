import type { Metadata } from "next";
import { RatesView } from "@/components/rates/rates-view";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Rates" };

// /rates: the rates grid of the property on screen (rate plans × room types × nights)
export default async function RatesPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "rates")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property in this data set">Rates are set per property; this data set has none yet.</EmptyState>;
  return <RatesView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
