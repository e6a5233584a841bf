import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

describe("smoke", () => {
  it("lists properties and creates a guest", async () => {
    const props = await h.get("/v1/properties", { sandbox: true });
    expect(props.status).toBe(200);
    expect(props.json.data[0].room_count).toBe(40);
    const created = await h.post("/v1/guests", { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" });
    expect(created.status).toBe(201);
    expect(created.json.id).toMatch(/^gst_/);
    expect(created.headers.get("service-request-id")).toMatch(/^req_/);
  });
});
