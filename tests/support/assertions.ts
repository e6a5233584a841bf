import { expect } from "vitest";
import { errorCodes, type ErrorCode } from "@/server/errors";
import { apiVersions } from "@/server/http/versions";

/** What `Harness.request` answers; a plain `fetch` answer fits once its text is read. */
export type HttpAnswer = { status: number; headers: Headers; json?: any; text: string }; // eslint-disable-line @typescript-eslint/no-explicit-any

const errorMembers = new Set(["type", "code", "message", "param", "request_id", "payment_id", "errors", "amount", "currency"]);

/** The headers every `/v1` response carries, errors included (contract §1). */
export function expectStandardHeaders(res: HttpAnswer, options: { rateLimit?: boolean } = {}) {
  expect(res.headers.get("service-request-id")).toMatch(/^req_[0-9A-Za-z]{10,}$/);
  expect(apiVersions as readonly string[]).toContain(res.headers.get("service-version"));
  if (options.rateLimit === false) return;
  for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    expect(res.headers.get(name), `${name} on ${res.status}`).toMatch(/^\d+$/);
  }
}

/** True when `status` is what the code table says for `code` (query and header faults: 400). */
export function statusFits(code: ErrorCode, status: number): boolean {
  return errorCodes[code].status === status || (code === "parameter_invalid" && status === 400);
}

/**
 * The error envelope of contract §2: status, type and code from the one table, `param` when
 * given (null: must be absent), and the request id of the body equal to the header's.
 */
export function expectError(res: HttpAnswer, status: number, code: ErrorCode, param?: string | null, options: { rateLimit?: boolean } = {}) {
  expect({ status: res.status, code: res.json?.error?.code }, res.text).toEqual({ status, code });
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(["error"]);
  const error = res.json.error;
  expect(error.type).toBe(errorCodes[code].type);
  expect(typeof error.message).toBe("string");
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.message).not.toMatch(/\n\s+at /); // never a stack trace
  expect(error.request_id).toBe(res.headers.get("service-request-id"));
  for (const key of Object.keys(error)) expect(errorMembers).toContain(key);
  if (param === null) expect(error).not.toHaveProperty("param");
  else if (param !== undefined) expect(error.param).toBe(param);
  expectStandardHeaders(res, options);
  return error as { type: string; code: ErrorCode; message: string; param?: string; request_id: string };
}
