import type { ReactNode } from "react";
import { SettingsTabs } from "@/components/setup/settings-tabs";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

// /settings/*: the account's settings and the hotel's setup, one tab each for owners and managers
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const { user } = await requireStaff();
  return (
    <>
      {can(user.role, "setup") ? <SettingsTabs /> : null}
      {children}
    </>
  );
}
