/**
 * Writes the served OpenAPI document to a file (default `openapi.json`), for `redocly lint` and
 * other tools that read a file. The `/v1` app answers in-process: no server, no database.
 * Usage: `tsx scripts/openapi.ts [path]`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/db/client";
import { createRestApi } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";

const target = process.argv[2] ?? "openapi.json";
mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
// GET /openapi.json needs no credential and no query: nothing reaches the database.
const api = createRestApi({ db: undefined as unknown as Db, limiter: new RateLimiter(), trustProxy: false });
const res = await api.request("/openapi.json");
if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}: ${await res.text()}`);
writeFileSync(target, JSON.stringify(await res.json(), null, 2) + "\n");
console.error(`wrote ${target}`);
