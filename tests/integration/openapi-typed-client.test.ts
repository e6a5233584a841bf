import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOriginPath } from "@/server/http/openapi-origin";
import { openApiTypes } from "@/clients/typescript/scripts/openapi-types";
import { startHarness, type Harness } from "../support/harness";
import { typeCheck } from "../support/typecheck";

// A client generated from the served document by openapi-typescript (default options) and used
// through openapi-fetch must compile when it sends only the required fields: a defaulted field
// (`children`, `source`, `capture`, `limit`) is optional on the way in (issue 14, point 2).

let h: Harness;
let schema: string;

beforeAll(async () => {
  h = await startHarness();
  const res = await h.get("/v1/openapi.json", { token: null });
  expect(res.status).toBe(200);
  schema = await openApiTypes(res.json);
});
afterAll(async () => h?.close());

const client = (booking: string) => `
import createClient from "openapi-fetch";
import type { paths, components } from "./schema";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1/v1", headers: { authorization: "Bearer hk_x" } });

export async function bookAStay() {
  const { data, error } = await api.POST("/reservations", {
    body: {
      ${booking}
    },
  });
  if (error) throw new Error(error.error.code);
  // Responses are in their output shape: what the server always fills in is required there.
  const reservation: components["schemas"]["Reservation"] = data;
  const children: number = data.children;
  return { reservation, children };
}

export async function listReservations() {
  const { data } = await api.GET("/reservations", { params: { query: { status: "confirmed" } } });
  return data?.data.map((r) => r.id) ?? [];
}

export async function createGuest() {
  const { data } = await api.POST("/guests", { body: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" } });
  return data?.id;
}

export async function takeCash(reservationId: string) {
  const { data } = await api.POST("/payments", { body: { reservation_id: reservationId, payment_method: { type: "cash" } } });
  return data?.status;
}
`;

const required = `property_id: "prop_1",
      guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      check_in: "2026-12-24",
      check_out: "2026-12-26",
      room_type_id: "rt_1",
      rate_plan_id: "rp_1",
      adults: 2,`;

describe("a typed client generated from /v1/openapi.json", () => {
  it("compiles with only the required fields of each request", () => {
    expect(typeCheck({ "schema.ts": schema, "client.ts": client(required) })).toEqual([]);
  });

  it("does not compile without a required field, or with a mistyped one", () => {
    const missing = typeCheck({ "schema.ts": schema, "client.ts": client(required.replace("adults: 2,", "")) });
    expect(missing.join("\n")).toMatch(/adults/);
    const mistyped = typeCheck({ "schema.ts": schema, "client.ts": client(required.replace("adults: 2,", 'adults: 2, source: "fax",')) });
    expect(mistyped.join("\n")).toMatch(/"fax"/);
  });

  it("documents each defaulted input as optional with its default, in the body and in the query", async () => {
    const doc = (await h.get("/v1/openapi.json", { token: null })).json;
    const body = (name: string) => {
      const [path, method] = name === "ReservationCreate" ? ["/reservations", "post"] : ["/payments", "post"];
      return doc.paths[path][method].requestBody.content["application/json"].schema;
    };
    expect(body("ReservationCreate").required).not.toContain("children");
    expect(body("ReservationCreate").properties.children.default).toBe(0);
    expect(body("ReservationCreate").properties.source.default).toBe("api");
    expect(body("PaymentCreate").required).not.toContain("capture");
    expect(body("PaymentCreate").properties.capture.default).toBe(true);
    expect(doc.paths["/reservations"].post.requestBody.required).toBe(true);
    const limit = doc.paths["/reservations"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit).toMatchObject({ required: false, schema: { default: 25 } });
    // No request body refers to a component schema, where generators read defaults as always present.
    const bodies = Object.values(doc.paths).filter((item) => !isOriginPath(item)).flatMap((item) => Object.values(item as Record<string, { requestBody?: unknown }>).map((op) => op.requestBody));
    expect(bodies.filter(Boolean).length).toBeGreaterThan(20);
    expect(JSON.stringify(bodies)).not.toContain("#/components/schemas/");
  });
});
