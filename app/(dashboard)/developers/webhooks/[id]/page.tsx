import type { Metadata } from "next";
import { EndpointDetail } from "@/components/developers/endpoint-detail";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Webhook endpoint" };

// /developers/webhooks/{id}: one endpoint: secret, recovery, test event, chart, backfill, delivery log
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "developers") ? <EndpointDetail id={id} /> : <NoAccess />;
}
