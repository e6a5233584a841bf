import type { Metadata } from "next";
import { EventsView } from "@/components/developers/events-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Events" };

// /developers/events: the event log
export default async function Page() {
  const { user } = await requireStaff();
  return can(user.role, "developers") ? <EventsView /> : <NoAccess />;
}
