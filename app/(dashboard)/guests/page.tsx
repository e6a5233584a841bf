import type { Metadata } from "next";
import { GuestsView } from "@/components/guests/guests-view";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Guests" };

// /guests: search, list and create guests
export default async function GuestsPage() {
  const { user } = await requireStaff();
  return can(user.role, "guests") ? <GuestsView /> : <NoAccess />;
}
