import type { Metadata } from "next";
import { NeedsProperty } from "@/components/setup/needs-property";
import { TaxesView } from "@/components/taxes/taxes-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Taxes" };

// /settings/taxes: the property's taxes and fees (VAT, sales tax, city tax), as folio lines will carry them
export default async function Page() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <NeedsProperty title="Taxes" />;
  return <TaxesView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
