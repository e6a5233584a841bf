import type { Metadata } from "next";
import { DeliveryDetail } from "@/components/developers/delivery-detail";
import { NoAccess } from "@/components/shell/no-access";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Delivery" };

// /developers/deliveries/{id}: a delivery's attempt timeline
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const [{ id }, { user }] = await Promise.all([params, requireStaff()]);
  return can(user.role, "developers") ? <DeliveryDetail id={id} /> : <NoAccess />;
}
