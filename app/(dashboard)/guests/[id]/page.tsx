import type { Metadata } from "next";
import { GuestDetail } from "@/components/guests/guest-detail";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Guest" };

// /guests/{id}: a guest's contact details and preferences (and, for owners and managers, their data: export, erasure)
export default async function GuestPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "guests") ? <GuestDetail id={id} canManageData={can(user.role, "guestData")} /> : <NoAccess />;
}
