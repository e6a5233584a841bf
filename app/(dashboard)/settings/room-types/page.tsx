import type { Metadata } from "next";
import { NeedsProperty } from "@/components/setup/needs-property";
import { RoomTypesView } from "@/components/setup/room-types-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Room types" };

// /settings/room-types: the room types of the property on screen
export default async function Page() {
  const { user } = await requireStaff();
  if (!can(user.role, "setup")) return <NoAccess />;
  const { current } = await dashboardProperties();
  if (!current) return <NeedsProperty title="Room types" />;
  return <RoomTypesView key={current.id} property={{ id: current.id, name: current.name, currency: current.currency, timezone: current.timezone }} />;
}
