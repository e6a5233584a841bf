import type { Metadata } from "next";
import { ReservationDetail } from "@/components/reservations/reservation-detail";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Reservation" };

// /reservations/{id}: the stay, the guest, the folio and the actions the state allows
export default async function ReservationPage({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "reservations") ? <ReservationDetail id={id} /> : <NoAccess />;
}
