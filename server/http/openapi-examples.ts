/* eslint-disable @typescript-eslint/no-explicit-any -- walks an arbitrary JSON document */
import { sample } from "openapi-sampler";

type Json = any;

/**
 * An example on every JSON request body and response that has none, made from its schema by
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
    const targets = [...media(op.requestBody?.content), ...Object.values(op.responses ?? {}).flatMap((r: Json) => media(r?.content))];
    for (const m of targets) {
      if (m.schema && m.example === undefined && m.examples === undefined) m.example = sample(m.schema, { skipReadOnly: true, quiet: true, enablePatterns: true }, doc);
    }
  }
  return doc as D;
}
