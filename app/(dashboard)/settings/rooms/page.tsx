import type { Metadata } from "next";
import { NeedsProperty } from "@/components/setup/needs-property";
import { RoomsView } from "@/components/setup/rooms-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Rooms" };

// /settings/rooms: the rooms of the property on screen, added one by one or by number range, and retired ones
export default async function Page() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <NeedsProperty title="Rooms" />;
  return <RoomsView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
