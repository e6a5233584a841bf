import { resourceTable } from "@/clients/typescript/src/resources";

/* eslint-disable @typescript-eslint/no-explicit-any -- reads the OpenAPI document's JSON */
type Json = any;

/** Where a parameter `$ref` points, resolved against the document. */
export const resolveParameter = (doc: Json, p: Json) => (p?.$ref ? doc.components?.parameters?.[p.$ref.split("/").pop()] : p);

/** The client method of an operation: `reservations.checkIn`, found in the client's one table. */
export function clientMethod(operationId: string): string | null {
  for (const [resource, methods] of Object.entries(resourceTable)) {
    for (const [method, id] of Object.entries(methods)) if (id === operationId) return `${resource}.${method}`;
  }
  return null;
}

const exampleOf = (p: Json) => p.example ?? p.schema?.example ?? p.schema?.default ?? p.schema?.enum?.[0] ?? "…";

/** Path parameters and required query parameters with their examples, as the request would send them. */
function requestParts(doc: Json, op: Json) {
  const parameters = (op.parameters ?? []).map((p: Json) => resolveParameter(doc, p));
  const path = parameters.filter((p: Json) => p.in === "path");
  const query = parameters.filter((p: Json) => p.in === "query" && p.required);
  const body = op.requestBody?.content?.["application/json"]?.example;
  return { path, query: Object.fromEntries(query.map((p: Json) => [p.name, String(exampleOf(p))])) as Record<string, string>, body };
}

/** A curl command for the operation, with the example body and every header the operation needs. */
export function curlExample(doc: Json, method: string, template: string, op: Json, origin: string): string {
  const { path, query, body } = requestParts(doc, op);
  let url = `${origin}${doc.servers?.[0]?.url ?? ""}${template}`;
  for (const p of path) url = url.replace(`{${p.name}}`, String(exampleOf(p)));
  const search = new URLSearchParams(query).toString();
  const lines = [`curl${method === "get" ? "" : ` -X ${method.toUpperCase()}`} "${url}${search ? `?${search}` : ""}"`, `-H "Authorization: Bearer $INNKEEP_API_KEY"`];
  if (op.parameters?.some((p: Json) => resolveParameter(doc, p)?.name === "Service-Environment")) lines.push(`-H "Service-Environment: sandbox"`);
  if (method === "post") lines.push(`-H "Idempotency-Key: $(uuidgen)"`);
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d '${JSON.stringify(body, null, 2).replace(/'/g, "'\\''")}'`);
  return lines.join(" \\\n  ");
}

/** The same request with the TypeScript client `@innkeep/node`: path parameters, then the body or query. */
export function clientExample(doc: Json, op: Json, origin: string): string | null {
  const name = clientMethod(op.operationId);
  if (!name) return null;
  const { path, query, body } = requestParts(doc, op);
  const args = [...path.map((p: Json) => JSON.stringify(exampleOf(p)))];
  const input = body ?? (Object.keys(query).length ? query : undefined);
  if (input !== undefined) args.push(JSON.stringify(input, null, 2));
  return [
    `import Innkeep from "@innkeep/node";`,
    ``,
    `const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: "${origin}", environment: "sandbox" });`,
    `const result = await innkeep.${name}(${args.join(", ")});`,
  ].join("\n");
}
