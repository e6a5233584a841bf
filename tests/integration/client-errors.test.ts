import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Innkeep, { ApiError, ConnectionError, InvalidRequestError, NotFoundError, type InnkeepError } from "@innkeep/node";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty } from "../support/hotel";

// The client's errors say what went wrong and what to do: an answer that is not the API's (a
// wrong baseUrl), a server that cannot be reached, an object in the other environment, every
// field at fault, and a misuse of toArray. Each against a real server (or a real closed port).

/** The error a call fails with (and a failed test if it succeeds). */
const failure = (call: PromiseLike<unknown>) =>
  Promise.resolve(call).then(
    () => expect.fail("the call should have failed"),
    (error: unknown) => error as InnkeepError & { errors: { param: string }[] },
  );

let h: Harness;
let innkeep: Innkeep;
let page: http.Server;
let pageUrl: string;

beforeAll(async () => {
  h = await startHarness();
  innkeep = new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl, maxRetries: 0 });
  // What a wrong baseUrl usually reaches: a web server's HTML "not found" page.
  page = http.createServer((_req, res) => res.writeHead(404, { "content-type": "text/html; charset=utf-8" }).end("<!DOCTYPE html>\n<html><body><h1>404   Not Found</h1></body></html>"));
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => page?.close(resolve));
  await h?.close();
});

describe("answers that are not the API's", () => {
  it("an HTML 404 from a wrong baseUrl is an ApiError naming the URL, the content and the likely cause", async () => {
    const error = await failure(new Innkeep({ apiKey: h.main.token, baseUrl: `${pageUrl}/innkeep`, maxRetries: 0 }).guests.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(NotFoundError); // no object is missing: the API never answered
    expect({ status: error.status, code: error.code, type: error.type }).toEqual({ status: 404, code: "unexpected_response", type: "api_error" });
    expect(error.message).toBe(
      `${pageUrl}/innkeep/v1/guests answered HTTP 404 with text/html, starting '<!DOCTYPE html> <html><body><h1>404 Not Found</h1></body></h…': not an Innkeep API answer. Is \`baseUrl\` right? It must be the Innkeep server's origin (or \`<origin>/v1\`), and nothing in between may answer for it.`,
    );
  });

  it("a path under the right server that is not the API is named the same way", async () => {
    const error = await failure(new Innkeep({ apiKey: h.main.token, baseUrl: `${h.baseUrl}/api`, maxRetries: 0 }).guests.list());
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("unexpected_response");
    expect(error.message).toMatch(new RegExp(`^${h.baseUrl}/api/v1/guests answered HTTP 404 with `));
    expect(error.message).toContain("Is `baseUrl` right?");
  });
});

describe("no answer at all", () => {
  it("a refused connection says so, with the address, instead of 'fetch failed'", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(new Innkeep({ apiKey: h.main.token, baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 }).guests.retrieve("gst_1"));
    expect(error).toBeInstanceOf(ConnectionError);
    expect({ status: error.status, code: error.code, type: error.type }).toEqual({ status: 0, code: "connection_failed", type: "connection_error" });
    expect(error.message).toBe(
      `Could not reach Innkeep at http://127.0.0.1:${port} (GET /v1/guests/gst_1): the connection was refused: nothing listens there (is the server running, and is \`baseUrl\` right?) [connect ECONNREFUSED 127.0.0.1:${port}]`,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("an unknown host says the name does not resolve", async () => {
    const error = await failure(new Innkeep({ apiKey: h.main.token, baseUrl: "http://innkeep.invalid", maxRetries: 0 }).guests.list());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/^Could not reach Innkeep at http:\/\/innkeep\.invalid \(GET \/v1\/guests\): the host name (does not resolve|could not be resolved just now)/);
  });
});

describe("the server's guidance reaches the integrator", () => {
  it("a 404 for the other environment's object carries the hint", async () => {
    const property = await sandboxProperty(h, h.main.token);
    const error = await failure(innkeep.properties.retrieve(property.id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.code).toBe("resource_missing");
    expect(error.message).toContain("It exists in this account's sandbox environment: send `Service-Environment: sandbox` to reach it.");
    expect((await new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl, environment: "sandbox" }).properties.retrieve(property.id)).id).toBe(property.id);
  });

  it("every missing field of one request, each with its param", async () => {
    const error = await failure(innkeep.reservations.create({} as never));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.code).toBe("parameter_missing");
    expect(error.errors.map((f) => f.param)).toEqual(["property_id", "guest", "check_in", "check_out", "room_type_id", "rate_plan_id", "adults"]);
  });

  it("toArray without a limit explains itself", async () => {
    const list = innkeep.guests.list() as unknown as { toArray(): Promise<unknown> };
    await expect(list.toArray()).rejects.toThrow("toArray needs { limit } (a number >= 0), not nothing: e.g. toArray({ limit: 500 }), or { limit: Infinity } to read every item.");
  });

  it("options may come alone where the body or query is optional", async () => {
    const guest = ok(await h.post("/v1/guests", { first_name: "Opt", last_name: "Ions", email: "options@example.com" }), 201);
    const listed = await innkeep.guests.list({ timeout: 10_000 });
    expect(listed.data.map((g) => g.id)).toContain(guest.id);
    expect(innkeep.lastResponse?.status).toBe(200);
    // A key given alone to an action whose body is optional is the key sent.
    const setup = await sandboxProperty(h, h.main.token);
    const sandbox = new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl, environment: "sandbox" });
    const [stay] = (await sandbox.reservations.list({ property_id: setup.id, status: "confirmed", limit: 1 })).data;
    const cancelled = await sandbox.reservations.cancel(stay.id, { idempotencyKey: "cancel-once-please" });
    expect(cancelled.status).toBe("cancelled");
    expect(sandbox.lastResponse?.idempotencyKey).toBe("cancel-once-please");
  });
});
