import type { Metadata } from "next";
import { ReceivablesView } from "@/components/receivables/receivables-view";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Receivables" };

// /receivables: open balances of ended stays, aged, with a refund of a credit and a payment of what is due
export default async function ReceivablesPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "receivables")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <EmptyState title="No property in this data set">Receivables are per property; this data set has none yet.</EmptyState>;
  return <ReceivablesView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, livemode: current.livemode }} />;
}
