import addFormats from "ajv-formats";
import OpenAPIBackend, { type Document } from "openapi-backend";
import type { Db } from "@/db/client";
import { createRestApi } from "@/server/http/app";
import { RateLimiter } from "@/server/http/rate-limit";

type Media = { schema?: unknown };
type ResponseObject = { content?: Record<string, Media> };
type Answer = { method: string; path: string; status: number; contentType: string | null; text: string };

/**
 * openapi-backend checks the document against the OpenAPI 3.0 schema, which a 3.1 document fails
 * (`webhooks`, type arrays). Whether the document itself is valid 3.1 is `redocly lint`'s job
 * (`npm run lint:openapi`); here it only routes and validates answers.
 */
class Backend extends OpenAPIBackend {
  validateDefinition() {
    return this.document;
  }
}

let validator: Promise<OpenAPIBackend> | undefined;

/**
 * The document `GET /v1/openapi.json` serves, made by the same code in-process (on a limiter of
 * its own, so fetching it never spends a test's rate-limit budget), loaded into openapi-backend.
 */
function load(): Promise<OpenAPIBackend> {
  validator ??= (async () => {
    const api = createRestApi({ db: undefined as unknown as Db, limiter: new RateLimiter(), trustProxy: false });
    const document = (await (await api.request("/openapi.json")).json()) as Document;
    const backend = new Backend({
      definition: document,
      apiRoot: "/v1",
      strict: true,
      quick: true,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      // Formats are checked too: a `date-time` answered without its zone, or a `date` that is not one, is drift.
      customizeAjv: (ajv) => addFormats(ajv),
    });
    await backend.init();
    return backend;
  })();
  return validator;
}

/**
 * What in one `/v1` answer the document does not describe: a status the operation does not list, a
 * media type its response does not list, or a JSON body off the response's schema. Answers of a
 * path or method the document does not have (404 route_not_found, 405) have no operation to compare.
 */
export async function undocumented(answer: Answer): Promise<string[]> {
  const backend = await load();
  const url = new URL(answer.path, "http://x");
  if (!url.pathname.startsWith("/v1/")) return [];
  const operation = backend.router.matchOperation({ method: answer.method.toLowerCase(), path: url.pathname, headers: {}, query: {} });
  if (!operation) return [];
  const where = `${answer.method} ${url.pathname} → ${answer.status}`;
  const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
  const declared = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses.default;
  if (!declared) return [`${where}: status not in the document (it lists ${Object.keys(responses).join(", ")})`];
  const media = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (!declared.content) return answer.text ? [`${where}: a body (${media}) where the document declares none`] : [];
  if (!declared.content[media])
    return [`${where}: media type '${media || "none"}' not in the document (it lists ${Object.keys(declared.content).join(", ")})`];
  if (media !== "application/json") return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${where}: declared JSON, but the body does not parse`];
  }
  const result = backend.validator.validateResponse(body, operation, answer.status);
  return (result.errors ?? []).map((e) => `${where}: body${e.instancePath || ""} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
}
