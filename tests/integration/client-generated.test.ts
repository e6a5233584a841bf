import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceTable } from "@innkeep/node";
import { openApiTypes, operationTable } from "@/clients/typescript/scripts/openapi-types";
import { operationTable as checkedInTable } from "@/clients/typescript/src/generated/operations";
import { startHarness, type Harness } from "../support/harness";

// The client library's types are generated from the document the server serves, never written
// by hand: when an operation or schema changes, this fails until `npm run client:types` is run
// and its output committed.

let h: Harness;
let document: object;
const generated = (name: string) => readFileSync(path.resolve("clients/typescript/src/generated", name), "utf8");

beforeAll(async () => {
  h = await startHarness();
  const res = await h.get("/v1/openapi.json", { token: null });
  expect(res.status).toBe(200);
  document = res.json;
});
afterAll(async () => h?.close());

describe("@innkeep/node generated code", () => {
  it("the checked-in types are exactly what the served document generates (else: npm run client:types)", async () => {
    expect(generated("openapi.ts") === (await openApiTypes(document)), "clients/typescript/src/generated/openapi.ts is stale: run `npm run client:types`").toBe(true);
    expect(generated("operations.ts") === operationTable(document), "clients/typescript/src/generated/operations.ts is stale: run `npm run client:types`").toBe(true);
  });

  it("the resource table reaches every operation of the document exactly once", () => {
    const reached = Object.values(resourceTable).flatMap((methods) => Object.values(methods) as string[]);
    expect(new Set(reached).size).toBe(reached.length);
    expect(new Set(reached)).toEqual(new Set(Object.keys(checkedInTable)));
  });
});
