import type { Metadata } from "next";
import { GroupView } from "@/components/groups/group-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Group" };

// /groups/{id}: the rooms of a group booking, checked in or cancelled room by room
export default async function GroupPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "reservations") ? <GroupView id={id} /> : <NoAccess />;
}
