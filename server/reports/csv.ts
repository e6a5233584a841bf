import { addDays } from "@/lib/dates";
import { minorPerMajor } from "@/lib/money";
import { toCsv } from "./build";

/** The columns each report's CSV carries, in order; `group_name` only where a group has a code. */
export function reportColumns(report: { type: string; group_by?: string }): string[] {
  if (report.type === "occupancy") return ["date", "rooms_available", "rooms_sold", "occupancy"];
  if (report.type === "revenue") return ["date", "room_revenue", "net", "tax", "gross", "adr", "revpar", "payments", "refunds", "credited_net", "credited_tax", "credited_gross"];
  const named = report.group_by === "rate_plan" || report.group_by === "room_type";
  return ["group", ...(named ? ["group_name"] : []), "reservations", "room_nights", "room_revenue", "net", "tax", "gross", "cancellations"];
}

/**
 * A report as the CSV attachment `/v1/reports/*?format=csv` answers and the dashboard downloads:
 * the report's rows only (totals are the JSON form's), and its file name.
 */
export function reportCsv(report: {
  type: string;
  group_by?: string;
  property_id: string;
  from: string;
  to: string;
  data: Record<string, unknown>[];
}) {
  return {
    filename: `${report.type}-${report.property_id}-${report.from}-${report.to}.csv`,
    body: toCsv(report.data, reportColumns(report)),
  };
}

type StaffReport = {
  type: string;
  group_by?: string;
  currency: string;
  from: string;
  to: string;
  data: Record<string, unknown>[];
};

const groupHeaders: Record<string, string> = { source: "Source", channel: "Channel", rate_plan: "Rate plan", room_type: "Room type" };
const chargedHeaders = [
  { key: "net", header: "Charged net" },
  { key: "tax", header: "Charged tax" },
  { key: "gross", header: "Charged gross" },
];
const moneyColumns = new Set(["room_revenue", "net", "tax", "gross", "adr", "revpar", "payments", "refunds", "credited_net", "credited_tax", "credited_gross"]);

/** "Harbor House, Boston" → "harbor-house-boston": a file name's words. */
const slug = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "") || "property";

/**
 * A report as the dashboard downloads it, for a spreadsheet rather than a program: headers in
 * words, money in major units of the property's currency with a Currency column, occupancy in
 * percent, each production group in words (`group_label`), and a file named after the property
 * and the nights it covers (first and last, inclusive, as on screen).
 */
export function staffReportCsv(report: StaffReport, propertyName: string) {
  const per = minorPerMajor(report.currency);
  const digits = Math.round(Math.log10(per));
  const columns =
    report.type === "occupancy"
      ? [
          { key: "date", header: "Night" },
          { key: "rooms_available", header: "Rooms available" },
          { key: "rooms_sold", header: "Rooms sold" },
          { key: "occupancy_percent", header: "Occupancy (%)" },
        ]
      : report.type === "revenue"
        ? [
            { key: "date", header: "Night" },
            { key: "room_revenue", header: "Room revenue" },
            ...chargedHeaders,
            { key: "adr", header: "ADR" },
            { key: "revpar", header: "RevPAR" },
            { key: "payments", header: "Payments" },
            { key: "refunds", header: "Refunds" },
            { key: "currency", header: "Currency" },
          ]
        : [
            { key: "group_label", header: groupHeaders[report.group_by ?? "source"] ?? "Group" },
            { key: "reservations", header: "Reservations" },
            { key: "room_nights", header: "Room nights" },
            { key: "room_revenue", header: "Room revenue" },
            ...chargedHeaders,
            { key: "cancellations", header: "Cancellations" },
            { key: "currency", header: "Currency" },
          ];
  const rows = report.data.map((row) => {
    const out: Record<string, unknown> = { ...row, currency: report.currency };
    // "129.00": the currency's decimals, in the form every spreadsheet reads as a number.
    for (const key of moneyColumns) if (typeof row[key] === "number") out[key] = ((row[key] as number) / per).toFixed(digits);
    if (typeof row.occupancy === "number") out.occupancy_percent = Math.round(row.occupancy * 10_000) / 100;
    return out;
  });
  const body = toCsv(rows, columns);
  return { filename: `${slug(propertyName)}-${report.type}-${report.from}-to-${addDays(report.to, -1)}.csv`, body };
}
