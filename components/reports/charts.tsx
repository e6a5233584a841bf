"use client";

import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { usePropertyFormat } from "@/components/ui/property-format";
import { minorPerMajor } from "@/lib/money";

const axis = { fontSize: 11, fill: "#78716c" };
const teal = "#0f766e";
const amber = "#d97706";
const violet = "#7c3aed";

/** A chart with its words: the figure is named for screen readers, the table below has the numbers. */
function Figure({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <figure className="rounded-lg border border-stone-200 bg-white p-3 shadow-sm" aria-label={label}>
      <figcaption className="mb-2 text-xs font-medium text-stone-600">{label}</figcaption>
      <div className="h-64 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          {children as React.ReactElement}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

export function OccupancyChart({ rows }: { rows: { date: string; occupancy: number; rooms_sold: number; rooms_available: number }[] }) {
  const fmt = usePropertyFormat();
  const short = (d: string) => fmt.day(d, "short");
  const data = rows.map((r) => ({ date: r.date, occupancy: Math.round(r.occupancy * 1000) / 10 }));
  return (
    <Figure label="Occupancy per night (%)">
      <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
        <XAxis dataKey="date" tickFormatter={short} tick={axis} minTickGap={12} />
        <YAxis domain={[0, 100]} tick={axis} unit="%" />
        <Tooltip labelFormatter={(d) => fmt.day(String(d), "long")} formatter={(v) => [`${v}%`, "Occupancy"]} />
        <Bar dataKey="occupancy" name="Occupancy" fill={teal} radius={[2, 2, 0, 0]} isAnimationActive={false} />
      </BarChart>
    </Figure>
  );
}

export function RevenueChart({ rows, currency }: { rows: { date: string; room_revenue: number; adr: number; revpar: number }[]; currency: string }) {
  const fmt = usePropertyFormat();
  const short = (d: string) => fmt.day(d, "short");
  const unit = minorPerMajor(currency);
  const data = rows.map((r) => ({ date: r.date, room_revenue: r.room_revenue / unit, adr: r.adr / unit, revpar: r.revpar / unit }));
  const money = (v: unknown) => fmt.money({ amount: Math.round(Number(v) * unit), currency });
  return (
    <Figure label={`Room revenue, ADR and RevPAR per night (${currency})`}>
      <ComposedChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
        <XAxis dataKey="date" tickFormatter={short} tick={axis} minTickGap={12} />
        <YAxis yAxisId="revenue" tick={axis} width={56} />
        <YAxis yAxisId="rate" orientation="right" tick={axis} width={44} />
        <Tooltip labelFormatter={(d) => fmt.day(String(d), "long")} formatter={(v, name) => [money(v), name]} />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="revenue" dataKey="room_revenue" name="Room revenue" fill={teal} radius={[2, 2, 0, 0]} isAnimationActive={false} />
        <Line yAxisId="rate" dataKey="adr" name="ADR" stroke={amber} dot={false} strokeWidth={2} isAnimationActive={false} />
        <Line yAxisId="rate" dataKey="revpar" name="RevPAR" stroke={violet} dot={false} strokeWidth={2} isAnimationActive={false} />
      </ComposedChart>
    </Figure>
  );
}

export function ProductionChart({
  rows,
  currency,
}: {
  rows: { group: string | null; group_label: string; room_revenue: number; reservations: number }[];
  currency: string;
}) {
  const fmt = usePropertyFormat();
  const unit = minorPerMajor(currency);
  // Each group in words ("Walk-in", "Booking.com", the rate plan's name), never its code.
  const data = rows.map((r) => ({ label: r.group_label, room_revenue: r.room_revenue / unit, reservations: r.reservations }));
  return (
    <Figure label={`Room revenue and reservations by group (${currency})`}>
      <ComposedChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
        <XAxis dataKey="label" tick={axis} interval={0} />
        <YAxis yAxisId="revenue" tick={axis} width={56} />
        <YAxis yAxisId="count" orientation="right" tick={axis} width={32} allowDecimals={false} />
        <Tooltip
          formatter={(v, name) => [name === "Reservations" ? String(v) : fmt.money({ amount: Math.round(Number(v) * unit), currency }), name]}
        />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar yAxisId="revenue" dataKey="room_revenue" name="Room revenue" fill={teal} radius={[2, 2, 0, 0]} isAnimationActive={false} />
        <Bar yAxisId="count" dataKey="reservations" name="Reservations" fill={amber} radius={[2, 2, 0, 0]} isAnimationActive={false} />
      </ComposedChart>
    </Figure>
  );
}
