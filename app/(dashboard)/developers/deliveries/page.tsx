import type { Metadata } from "next";
import { DeliveryLog, type LogFilters } from "@/components/developers/delivery-log";
import { NoAccess } from "@/components/shell/no-access";
import { PageHeader } from "@/components/ui";
import { can } from "@/lib/access";
import { requireStaff } from "@/server/trpc/server";

export const metadata: Metadata = { title: "Deliveries" };

const outcomes = ["succeeded", "failed", "pending", "held"];

// /developers/deliveries: every endpoint's deliveries, filterable; ?endpoint_id= and ?outcome= preset the filters
export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [sp, { user }] = await Promise.all([searchParams, requireStaff()]);
  if (!can(user.role, "developers")) return <NoAccess />;
  const endpointId = typeof sp.endpoint_id === "string" ? sp.endpoint_id : undefined;
  const outcome = typeof sp.outcome === "string" && outcomes.includes(sp.outcome) ? (sp.outcome as LogFilters["outcome"]) : undefined;
  return (
    <>
      <PageHeader
        title="Deliveries"
        description={endpointId ? <span className="break-all">Deliveries to endpoint {endpointId}.</span> : "Every delivery to every endpoint, newest first. Open one for its attempts: what was sent and what came back."}
      />
      <DeliveryLog endpointId={endpointId} initial={{ outcome }} title="Deliveries" />
    </>
  );
}
