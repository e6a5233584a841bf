import type { Metadata } from "next";
import { BookingEngineView } from "@/components/setup/booking-engine-view";
import { NeedsProperty } from "@/components/setup/needs-property";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Booking engine" };

// /settings/booking-engine: the property's public booking page: on or off, its address, the rates it sells, the link to copy
export default async function Page() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <NeedsProperty title="Booking engine" />;
  return <BookingEngineView key={current.id} property={{ id: current.id, name: current.name }} />;
}
