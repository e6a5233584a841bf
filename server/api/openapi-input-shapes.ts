/* eslint-disable @typescript-eslint/no-explicit-any -- walks an arbitrary JSON document */

type Json = any;
type Document = { paths?: Record<string, Record<string, Json>>; components?: Record<string, Record<string, Json>> };

const schemaRef = "#/components/schemas/";

/**
 * Request bodies in their zod INPUT shape. The generator already leaves a defaulted field out of
 * `required` and gives its `default`, but a body named as a component schema reads, to typed-client
 * generators (openapi-typescript's `defaultNonNullable`), as the OUTPUT shape: `children`, `source`
 * or `capture` would become required. So every JSON request body is written out in place, in the
 * operation, with the schemas it refers to inlined (their name kept as `title`): there a default
 * means "may be left out". Responses keep their component schemas (the output shape); query
 * parameters are parameters, already read as input. Returns a new document.
 */
export function withInputShapedBodies<D extends object>(document: D): D {
  const doc = structuredClone(document) as Document;
  const schemas = doc.components?.schemas ?? {};
  for (const item of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const media = operation?.requestBody?.content?.["application/json"];
      if (media?.schema) media.schema = inline(media.schema, schemas, new Set());
    }
  }
  // A schema only bodies used now lives inside them; drop it, so no component keeps an output-looking copy.
  const refsIn = (value: unknown) => JSON.stringify(value ?? {}).match(/#\/components\/schemas\/[\w.-]+/g) ?? [];
  const used = new Set(refsIn({ ...doc, components: { ...doc.components, schemas: undefined } }));
  for (const ref of used) for (const inner of refsIn(schemas[ref.slice(schemaRef.length)])) used.add(inner);
  for (const name of Object.keys(schemas)) if (!used.has(schemaRef + name)) delete schemas[name];
  return doc as D;
}

/** A deep copy of a schema with every `#/components/schemas/…` reference replaced by its target. */
function inline(schema: Json, schemas: Record<string, Json>, seen: Set<string>): Json {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, schemas, seen));
  if (!schema || typeof schema !== "object") return schema;
  if (typeof schema.$ref === "string" && schema.$ref.startsWith(schemaRef)) {
    const name = schema.$ref.slice(schemaRef.length);
    // A recursive schema stays a reference where it recurses; the bodies of this API have none.
    if (seen.has(name) || !schemas[name]) return schema;
    const { $ref: _ref, ...siblings } = schema;
    return { title: name, ...inline(schemas[name], schemas, new Set([...seen, name])), ...siblings };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, schemas, seen)]));
}
