import type { Metadata } from "next";
import { SettingsView } from "@/components/settings/settings-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Settings" };

// /settings: developer contact, plan and limits, API usage; users and roles for owners
export default async function SettingsPage() {
  const { user } = await requireStaff();
  if (!can(user.role, "settings")) return <NoAccess />;
  return <SettingsView canUsers={can(user.role, "users")} canPlan={can(user.role, "plan")} canProcessor={can(user.role, "paymentProcessor")} canMailServer={can(user.role, "mailServer")} currentUserId={user.id} />;
}
