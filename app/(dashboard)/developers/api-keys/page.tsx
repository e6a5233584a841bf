import type { Metadata } from "next";
import { ApiKeysView } from "@/components/developers/api-keys-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "API keys" };

// /developers/api-keys: create, list, revoke API keys
export default async function Page() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <ApiKeysView /> : <NoAccess />;
}
