import type { Metadata } from "next";
import { AppsView } from "@/components/oauth/apps-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "OAuth apps" };

// /developers/apps: register OAuth apps, edit redirect URIs, rotate secrets
export default async function OAuthAppsPage() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <AppsView /> : <NoAccess />;
}
