import type { Metadata } from "next";
import { NewReservation } from "@/components/reservations/new-reservation";
import { NoAccess } from "@/components/shell/no-access";
import { EmptyState } from "@/components/ui/states";
import { can } from "@/lib/access";
import { dashboardProperties, requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "New reservation" };

// /reservations/new: price a stay, pick a room type and rate plan, enter the guest, book
export default async function NewReservationPage() {
  const [{ user }, { current }] = await Promise.all([requireStaff(), dashboardProperties()]);
  if (!can(user.role, "reservations")) return <NoAccess />;
  if (!current) return <EmptyState title="No property in this data set">Reservations belong to a property; none exists here yet.</EmptyState>;
  return <NewReservation propertyId={current.id} walkInsWithoutEmail={current.walk_ins_without_email} />;
}
