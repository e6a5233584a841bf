import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import Innkeep, { type PagePromise, type RequestOptions, type Schemas, type WebhookEvent, type WebhookEventType } from "@innkeep/node";
import type { webhooks as DocumentWebhooks } from "../../clients/typescript/src/generated/openapi";
import { typeCheck } from "../support/typecheck";

// Type-level tests of @innkeep/node: the types come from the generated OpenAPI types, so a
// create call with only the required fields compiles; a missing or unknown field does not.
// `expectTypeOf` lines are checked by `tsc --noEmit`; the snippets below by the compiler itself,
// so that a regression fails this test run too.

const innkeep = new Innkeep({ apiKey: "hk_test" });
type Reservation = Schemas["Reservation"];

describe("@innkeep/node types", () => {
  it("types each method from the document (checked by tsc)", () => {
    expectTypeOf(innkeep.reservations.create).parameter(0).toHaveProperty("adults").toEqualTypeOf<number>();
    expectTypeOf(innkeep.reservations.retrieve).returns.resolves.toEqualTypeOf<Reservation>();
    expectTypeOf(innkeep.reservations.list).returns.toEqualTypeOf<PagePromise<Reservation>>();
    // Its first argument is the query, or (as the query is optional) the per-call options alone.
    expectTypeOf(innkeep.reservations.list).parameter(0).exclude<undefined>().exclude<RequestOptions>().toHaveProperty("status");
    expectTypeOf(innkeep.webhookEndpoints.retrieveBackfill).parameters.toMatchTypeOf<[string, string, ...unknown[]]>();
    // The event types a delivery can carry are exactly the document's webhooks (every event type and ping).
    expectTypeOf(Innkeep.webhooks.constructEvent).returns.toHaveProperty("type").toEqualTypeOf<keyof DocumentWebhooks>();
    expectTypeOf<WebhookEventType>().toEqualTypeOf<keyof DocumentWebhooks>();
    // Each type's object is the one its webhook entry carries: a new room is a Room, a rate plan's change a RatePlan.
    expectTypeOf<Extract<WebhookEvent, { type: "room.created" }>["data"]["object"]>().toEqualTypeOf<Schemas["Room"]>();
    expectTypeOf<Extract<WebhookEvent, { type: "rate_plan.updated" }>["data"]["object"]>().toEqualTypeOf<Schemas["RatePlan"]>();
    expectTypeOf<Extract<WebhookEvent, { type: "ping" }>["data"]["object"]>().toEqualTypeOf<Schemas["Ping"]>();

    const typed = () =>
      // @ts-expect-error an unknown resource does not exist
      innkeep.bookings;
    expect(typeof typed).toBe("function");
  });

  const program = (call: string) => ({
    "call.ts": `import Innkeep from "@innkeep/node";
const innkeep = new Innkeep({ apiKey: "hk_test", environment: "sandbox" });
export async function run() {
  ${call}
}
`,
  });
  const check = (call: string) => typeCheck(program(call), { paths: { "@innkeep/node": [path.resolve("clients/typescript/src/index.ts")] } });
  const required = `property_id: "prop_1", guest: { first_name: "A", last_name: "B", email: "a@b.co" }, check_in: "2026-12-24", check_out: "2026-12-26", room_type_id: "rt_1", rate_plan_id: "rp_1", adults: 2`;

  it("a create call with only the required fields compiles; defaulted fields are optional", () => {
    const errors = check(`
  const r = await innkeep.reservations.create({ ${required} });
  const n: number = r.children;
  await innkeep.payments.create({ reservation_id: r.id, payment_method: { type: "cash" } }, { idempotencyKey: "k1" });
  await innkeep.reservations.checkOut(r.id);
  for await (const x of innkeep.reservations.list({ status: "confirmed" })) x.id.toUpperCase();
  const all: (string | null)[] = (await innkeep.guests.list().toArray({ limit: 10 })).map((g) => g.email);
  // Options alone where the body or query is optional: no \`{}\` placeholder.
  await innkeep.reservations.cancel(r.id, { idempotencyKey: "k2" });
  await innkeep.guests.list({ timeout: 5_000 });
  // Events are typed by their type, \`ping\` included, in lists as in deliveries.
  for await (const e of innkeep.events.list()) if (e.type === "inventory.updated") e.data.object.room_type_id.toUpperCase();
  const ev = Innkeep.webhooks.constructEvent("", "", "");
  const endpoint: string = ev.type === "ping" ? ev.data.object.endpoint_id : "";
  // Error codes and types are the document's enums.
  const failure = new Error() as unknown as import("@innkeep/node").InnkeepError;
  const missing: boolean = failure.code === "resource_missing" && failure.type === "invalid_request_error";
  const fields: (string | undefined)[] = (failure.errors ?? []).map((f) => f.param);
  return [n, all, endpoint, missing, fields];`);
    expect(errors).toEqual([]);
  }, 60_000);

  it("a missing required field, an unknown field or a mistyped one does not compile", () => {
    const wrong: [string, RegExp][] = [
      [`await innkeep.reservations.create({ ${required.replace(", adults: 2", "")} });`, /adults/],
      [`await innkeep.guests.create({ first_name: "A", last_name: "B" });`, /email/],
      [`await innkeep.reservations.retrieve();`, /Expected 1-2 arguments/],
      [`await innkeep.reservations.create({ ${required}, adultz: 1 });`, /adultz/],
      [`await innkeep.reservations.create({ ${required}, source: "fax" });`, /"fax"/],
      [`await innkeep.reservations.list({ status: "asleep" });`, /"asleep"/],
      [`if ((new Error() as unknown as import("@innkeep/node").InnkeepError).code === "resouce_missing") return;`, /resouce_missing/],
      [`await innkeep.guests.list().toArray();`, /Expected 1 arguments/],
      [`for await (const e of innkeep.events.list()) if (e.type === "inventory.updated") e.data.object.first_name;`, /first_name/],
    ];
    // One program, one call per line: each line must carry its own error.
    const errors = check(wrong.map(([call]) => call).join("\n  "));
    wrong.forEach(([call, reason], i) => {
      const line = errors.filter((e) => e.startsWith(`call.ts:${i + 4}:`)).join("\n");
      expect(line, call).toMatch(reason);
    });
  }, 60_000);
});
