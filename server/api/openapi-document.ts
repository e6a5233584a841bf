import { getApiDeps } from "@/server/runtime";
import { createRestApi } from "./app";

type OpenApiDocument = ReturnType<ReturnType<typeof createRestApi>["getOpenAPI31Document"]>;

let cached: Promise<OpenApiDocument> | undefined;

/**
 * The OpenAPI 3.1 document exactly as `GET /v1/openapi.json` serves it, for pages that render
 * it. Generated once per process from the operations' zod schemas; no query runs.
 */
export function openApiDocument(): Promise<OpenApiDocument> {
  cached ??= (async () => {
    const response = await createRestApi(await getApiDeps()).request("/openapi.json");
    return (await response.json()) as OpenApiDocument;
  })();
  return cached;
}
