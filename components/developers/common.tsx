"use client";

import { Badge, type BadgeTone } from "@/components/ui";
import { eventTypes, type EventType } from "@/server/events/types";
import { MomentText } from "@/components/ui/property-format";

export { CopyButton } from "@/components/ui/copy-button";

/** A moment in the property's zone and its one format, or "—". */
export const When = ({ at }: { at: string | null | undefined }) => (at ? <MomentText at={at} /> : <>—</>);

/** "3 min ago", "in 20 s": for next attempts and last use. */
export function relative(iso: string | null | undefined, now = Date.now()) {
  if (!iso) return "—";
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(s);
  const text =
    abs < 60
      ? `${abs} s`
      : abs < 3600
        ? `${Math.round(abs / 60)} min`
        : abs < 86_400
          ? `${Math.round(abs / 3600)} h`
          : `${Math.round(abs / 86_400)} d`;
  return s >= 0 ? `in ${text}` : `${text} ago`;
}

export type Outcome = "succeeded" | "failed" | "pending" | "held";
const outcomeTone: Record<Outcome, BadgeTone> = { succeeded: "teal", failed: "red", pending: "blue", held: "amber" };
const outcomeLabel: Record<Outcome, string> = { succeeded: "Succeeded", failed: "Failed", pending: "Pending", held: "Held" };

/** Where a delivery stands; "held": waiting for its disabled endpoint. */
export const OutcomeBadge = ({ outcome }: { outcome: Outcome }) => <Badge tone={outcomeTone[outcome]}>{outcomeLabel[outcome]}</Badge>;

/** An HTTP answer (or its absence), coloured by class. */
export function HttpStatus({ status, error }: { status: number | null; error?: string | null }) {
  if (status === null) return <Badge tone="red">{error ? "No answer" : "—"}</Badge>;
  const tone: BadgeTone = status < 300 ? "teal" : status < 400 ? "violet" : status < 500 ? "amber" : "red";
  return <Badge tone={tone}>{status}</Badge>;
}

export function EndpointStatus({
  status,
  reason,
  since,
}: {
  status: "enabled" | "disabled";
  reason: "circuit_breaker" | "manual" | null;
  since?: string | null;
}) {
  if (status === "enabled") return <Badge tone="teal">Enabled</Badge>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone="red">{reason === "circuit_breaker" ? "Disabled by circuit breaker" : "Disabled by hand"}</Badge>
      {since ? (
        <span className="text-xs text-stone-500">
          since <When at={since} />
        </span>
      ) : null}
    </span>
  );
}

/** Pre-formatted text that wraps instead of widening the page; JSON is indented when it parses. */
export function Code({ text, label, maxHeight = "max-h-80" }: { text: string; label?: string; maxHeight?: string }) {
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: shown as stored
  }
  return (
    <pre
      aria-label={label}
      tabIndex={0}
      className={`${maxHeight} overflow-auto whitespace-pre-wrap break-all rounded-md bg-stone-900 p-3 font-mono text-xs text-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600`}
    >
      {shown || <span className="text-stone-400">(empty)</span>}
    </pre>
  );
}

/** Headers as a two-column list. */
export function HeaderList({ headers, label }: { headers: Record<string, string> | null; label: string }) {
  if (!headers) return <p className="text-xs text-stone-500">Not recorded for attempts made before this version.</p>;
  const entries = Object.entries(headers);
  if (!entries.length) return <p className="text-xs text-stone-500">None.</p>;
  return (
    <dl aria-label={label} className="grid grid-cols-1 gap-x-3 gap-y-0.5 font-mono text-xs sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
      {entries.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="break-all text-stone-500">{k}</dt>
          <dd className="mb-1 break-all text-stone-800 sm:mb-0">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Which resource heads each event type's group in selectors and filters, by the type's prefix. */
const resourceOf: Record<EventType extends `${infer Prefix}.${string}` ? Prefix : never, string> = {
  reservation: "Reservations",
  payment: "Payments",
  guest: "Guests",
  housekeeping: "Housekeeping",
  rate: "Rates and inventory",
  inventory: "Rates and inventory",
  night_audit: "Night audit",
  group: "Groups",
  property: "Properties",
  room_type: "Rooms",
  room: "Rooms",
  rate_plan: "Rates and inventory",
  tax: "Taxes and invoices",
  invoice: "Taxes and invoices",
  credit_note: "Taxes and invoices",
};

/**
 * Every event type the API sends (the one list in server/events/types.ts), grouped by resource
 * for selectors and filters: a hand-kept copy had already missed `guest.erased`.
 */
export const eventGroups: { resource: string; types: string[] }[] = [...new Set(Object.values(resourceOf))].map((resource) => ({
  resource,
  types: eventTypes.filter((type) => resourceOf[type.split(".")[0] as keyof typeof resourceOf] === resource),
}));
export const allEventTypes = eventGroups.flatMap((g) => g.types);

/** `datetime-local` value (local time) ⇄ ISO instant. */
export const localInput = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
export const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : undefined);
/**
 * The end of a `datetime-local` minute, as an ISO instant: "to 17:54" takes in what happened
 * during 17:54 (the input has no seconds; its start would leave out the minute a person means).
 */
export const throughLocalInput = (value: string) => (value ? new Date(new Date(value).getTime() + 59_999).toISOString() : undefined);
