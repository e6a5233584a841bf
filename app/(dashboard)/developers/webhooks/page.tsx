import type { Metadata } from "next";
import { WebhooksView } from "@/components/developers/webhooks-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Webhooks" };

// /developers/webhooks: endpoints with their health; create
export default async function Page() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <WebhooksView /> : <NoAccess />;
}
