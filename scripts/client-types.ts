/**
 * Rewrites the client library's generated types and operation table (clients/typescript/src/generated/)
 * from the OpenAPI document this server serves. `npm run client:types`; a test fails when the
 * checked-in file differs from what the current server produces.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { openApiTypes, operationTable } from "../clients/typescript/scripts/openapi-types";
import { createRestApi } from "../server/api/app";
import { RateLimiter } from "../server/http/rate-limit";

// The document needs no database: GET /openapi.json runs before any query.
const api = createRestApi({ db: undefined as never, limiter: new RateLimiter(), trustProxy: false });
const document = await (await api.request("/openapi.json")).json();
const dir = path.join(import.meta.dirname, "../clients/typescript/src/generated");
writeFileSync(path.join(dir, "openapi.ts"), await openApiTypes(document));
writeFileSync(path.join(dir, "operations.ts"), operationTable(document));
console.error(`wrote ${path.relative(process.cwd(), dir)}/{openapi,operations}.ts`);
