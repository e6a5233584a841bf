import type { Metadata } from "next";
import { OutboxView } from "@/components/developers/outbox-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Mail outbox" };

// /developers/outbox: mail sent or held
export default async function Page() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <OutboxView /> : <NoAccess />;
}
