import type { Metadata } from "next";
import { EventDetail } from "@/components/developers/event-detail";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Event" };

// /developers/events/{id}: payload, deliveries, replay
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "developers") ? <EventDetail id={id} /> : <NoAccess />;
}
