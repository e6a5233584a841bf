import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { logger } from "@/server/observability/logger";
import { metrics } from "@/server/observability/metrics";
import { startHarness, type Harness } from "../support/harness";

// Issue 24, item 4: a client that closes its connection in the middle of a request body is not a
// server error. Nobody is there to answer: no "unhandled error" at error level, no 500 in the
// logs or in the metrics; one debug line says what happened, and the metric counts a 499.

type Line = { level: string; msg: string; fields: Record<string, unknown> };

let h: Harness;
const lines: Line[] = [];

beforeAll(async () => {
  h = await startHarness();
  // Every request's logger is a child of the one logger (observe.ts): record what each is told.
  const record = (level: string) => (fields: Record<string, unknown>, msg?: string) => void lines.push({ level, msg: msg ?? "", fields });
  const child = (bindings: Record<string, unknown>) => {
    const log = Object.fromEntries(["trace", "debug", "info", "warn", "error", "fatal"].map((level) => [level, (f: object, m?: string) => record(level)({ ...bindings, ...f }, m)]));
    return { ...log, child } as unknown as ReturnType<typeof logger.child>;
  };
  vi.spyOn(logger, "child").mockImplementation(child);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

/** `innkeep_http_requests_total` for POST /guests at one status. */
async function counted(status: string): Promise<number> {
  const { values } = await metrics().httpRequests.get();
  return values.filter((v) => v.labels.route === "/guests" && v.labels.method === "POST" && v.labels.status === status).reduce((n, v) => n + v.value, 0);
}

/** Sends the headers and half of a declared body, then closes the socket. */
function abandonMidBody(): Promise<void> {
  const { port } = new URL(h.baseUrl);
  const body = JSON.stringify({ first_name: "Half", last_name: "Sent", email: "half@example.com" });
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(
        [`POST /v1/guests HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Authorization: Bearer ${h.main.token}`, "Content-Type: application/json", `Content-Length: ${body.length}`, "", body.slice(0, body.length / 2)].join("\r\n"),
      );
      // Give the server time to start reading the body, then leave.
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
    socket.on("error", reject);
  });
}

describe("a client that closes the connection mid-body", () => {
  it("is logged at debug and counted as 499, never as an error or a 500", async () => {
    const before = { aborted: await counted("499"), failed: await counted("500") };
    await abandonMidBody();
    await expect.poll(() => counted("499"), { timeout: 5_000 }).toBe(before.aborted + 1);
    expect(await counted("500")).toBe(before.failed);
    const abort = lines.find((l) => l.msg === "client closed the request before its body ended");
    expect(abort?.level).toBe("debug");
    const request = abort!.fields.request_id;
    const mine = lines.filter((l) => l.fields.request_id === request);
    // Nothing above debug about this request: no "unhandled error", no access line at info.
    expect(mine.filter((l) => l.level !== "debug" && l.level !== "trace")).toEqual([]);
    expect(mine.find((l) => l.msg === "request")?.fields.status).toBe(499);
    // Nothing was created.
    const guests = await h.get("/v1/guests?limit=100");
    expect(guests.json.data.map((g: { email: string }) => g.email)).not.toContain("half@example.com");
  });

  it("a whole body still answers as before", async () => {
    const res = await h.post("/v1/guests", { first_name: "Whole", last_name: "Sent", email: "whole@example.com" });
    expect(res.status).toBe(201);
  });
});
