import type { Metadata } from "next";
import { PropertyView } from "@/components/setup/property-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Property" };

// /settings/property: create the first property, or change the one on screen
export default async function PropertyPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  return <PropertyView key={current?.id ?? "new"} propertyId={current?.id ?? null} />;
}
