import type { Metadata } from "next";
import { NeedsProperty } from "@/components/setup/needs-property";
import { RatePlansView } from "@/components/setup/rate-plans-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Rate plans" };

// /settings/rate-plans: the rate plans of the property on screen, their policies and derived prices
export default async function Page() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <NeedsProperty title="Rate plans" />;
  return <RatePlansView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
