/* eslint-disable @typescript-eslint/no-explicit-any -- walks an arbitrary JSON document */
import { sample } from "openapi-sampler";
import { idPrefixes, type IdKind } from "@/server/ids";
import { reportCsv } from "@/server/reports/csv";

type Json = any;

/**
 * An example on every JSON request body and response that has none (and a report's CSV), made from its schema by
 * openapi-sampler (Redocly's): each field's own `example`, else its default, first enum value or a
 * value of its format. The schemas carry examples where a made-up value would mislead (ids,
 * dates, money), so the examples read like the API's answers. Returns a new document.
 */
export function withExamples<D extends object>(document: D): D {
  const doc = structuredClone(document) as Json;
  const media = (content: Json) => Object.entries(content ?? {}).filter(([type]) => type === "application/json").map(([, m]) => m as Json);
  const operations = [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})].flatMap((item: Json) => Object.values(item ?? {}));
  for (const op of operations as Json[]) {
    if (!op || typeof op !== "object") continue;
    const fill = (m: Json, request: boolean) => {
      if (!m.schema || m.example !== undefined || m.examples !== undefined) return;
      const options = { skipReadOnly: true, quiet: true, enablePatterns: true };
      // A request shows what it needs (shorter, and fewer combinations that only some states allow);
      // a body with no required field (PATCH) shows its fields.
      const minimal = request ? sample(m.schema, { ...options, skipNonRequired: true }, doc) : undefined;
      const useful = minimal && typeof minimal === "object" && Object.keys(minimal).length ? minimal : sample(m.schema, options, doc);
      m.example = readable(useful);
    };
    for (const m of media(op.requestBody?.content)) fill(m, true);
    // A range in the query (`from`, `to`) samples as the bodies' do: its end after its start, so
    // the example of GET /rate_plans/{id}/rates is a request the server accepts.
    for (const p of (op.parameters ?? []) as Json[]) {
      if (p?.in === "query" && ends[p.name] && p.example === undefined && p.schema?.example === "2026-12-24") p.example = ends[p.name];
    }
    for (const m of Object.values(op.responses ?? {}).flatMap((r: Json) => media(r?.content))) fill(m, false);
    // A report's `format=csv` answer: the CSV of its JSON example, as the server writes it (header row first).
    for (const response of Object.values(op.responses ?? {}) as Json[]) {
      const csv = response?.content?.["text/csv"];
      const json = response?.content?.["application/json"]?.example;
      if (csv && csv.example === undefined && json) csv.example = reportCsv(json).body;
    }
  }
  return doc as D;
}

/** Words for the free-text fields a sample would otherwise fill with "string". */
const words: Record<string, string> = {
  first_name: "Ada",
  last_name: "Lovelace",
  notes: "Late arrival, around 23:00.",
  reason: "Guest request",
  assignee: "maria@harbor-hotel.example",
  number: "101",
  bed: "king",
  program: "Harbor Rewards",
  tier: "gold",
  allergies: "peanuts",
  amenities: "wifi",
  group: "direct",
};
/** A range's end a few days after its start (every date samples as the same day). */
const ends: Record<string, string> = { check_out: "2026-12-27", to: "2026-12-31", until: "2026-12-31" };

/** An id field's example from its name: `room_type_id` → `rt_…`, as the API issues them. */
function idExample(key: string): string | undefined {
  const kind = key.replace(/_ids?$/, "").replace(/_(\w)/g, (_, c: string) => c.toUpperCase()) as IdKind;
  return idPrefixes[kind] ? `${idPrefixes[kind]}_1a2B3c4D5e6F7g8H9i0J1k2L` : undefined;
}

/** The sample with the placeholder "string" replaced where the field's name says what it holds. */
function readable(value: Json, key = ""): Json {
  if (Array.isArray(value)) return value.map((v) => readable(v, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readable(v, k)]));
  if (ends[key] && value === "2026-12-24") return ends[key];
  if (value !== "string") return value;
  return (/_ids?$/.test(key) ? idExample(key) : words[key]) ?? value;
}
