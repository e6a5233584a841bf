import type { Metadata } from "next";
import { InstallsView } from "@/components/oauth/installs-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Installed apps" };

// /developers/installs: apps installed on the account, and their revocation
export default async function InstalledAppsPage() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <InstallsView /> : <NoAccess />;
}
