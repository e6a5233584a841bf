import type { Metadata } from "next";
import { ReservationsView } from "@/components/reservations/reservations-view";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Reservations" };

// /reservations: today's arrivals, in-house and departures, and a search of all reservations
export default async function ReservationsPage({ searchParams }: { searchParams: Promise<{ tab?: string }> }) {
  const [{ user }, { current }, { tab }] = await Promise.all([requireStaff(), dashboardProperties(), searchParams]);
  if (!can(user.role, "reservations")) return <NoAccess />;
  if (!current) return <EmptyState title="No property in this data set">Reservations belong to a property; none exists here yet.</EmptyState>;
  return <ReservationsView propertyId={current.id} propertyName={current.name} initialTab={tab} />;
}
