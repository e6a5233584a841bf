import { toCsv } from "./build";

/** The columns each report's CSV carries, in order; `group_name` only where a group has a code. */
export function reportColumns(report: { type: string; group_by?: string }): string[] {
  if (report.type === "occupancy") return ["date", "rooms_available", "rooms_sold", "occupancy"];
  if (report.type === "revenue") return ["date", "room_revenue", "adr", "revpar", "payments", "refunds"];
  const named = report.group_by === "rate_plan" || report.group_by === "room_type";
  return ["group", ...(named ? ["group_name"] : []), "reservations", "room_nights", "room_revenue", "cancellations"];
}

/**
 * A report as the CSV attachment `/v1/reports/*?format=csv` answers and the dashboard downloads:
 * the report's rows only (totals are the JSON form's), and its file name.
 */
export function reportCsv(report: { type: string; group_by?: string; property_id: string; from: string; to: string; data: Record<string, unknown>[] }) {
  return {
    filename: `${report.type}-${report.property_id}-${report.from}-${report.to}.csv`,
    body: toCsv(report.data, reportColumns(report)),
  };
}
