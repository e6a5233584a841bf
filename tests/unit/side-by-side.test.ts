import { describe, expect, it } from "vitest";
import { sideBySide } from "@/server/side-by-side";

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failLater = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

describe("sideBySide: reads together, failures in the caller's order", () => {
  it("hands back each read's value, whatever order they finished in", async () => {
    const [a, b, c] = await sideBySide([later(20, "first"), later(1, 2), Promise.resolve({ three: 3 })]);
    expect([a(), b(), c()]).toEqual(["first", 2, { three: 3 }]);
  });

  it("throws a read's own error only when its getter is called, so the earlier check wins", async () => {
    // The second read fails first in time; the caller checks the first before it.
    const [property, roomType] = await sideBySide([failLater(20, "no such property"), failLater(1, "no such room type")]);
    expect(() => property()).toThrow("no such property");
    expect(() => roomType()).toThrow("no such room type");
  });

  it("lets a check between two reads fail before a later read's error is seen", async () => {
    const [property, types] = await sideBySide([later(5, { timezone: "UTC" }), failLater(1, "not a room type of this property")]);
    const check = (p: { timezone: string }) => {
      if (p.timezone === "UTC") throw new Error("check_in is in the past");
    };
    expect(() => check(property())).toThrow("check_in is in the past");
    expect(() => types()).toThrow("not a room type");
  });

  it("waits for every read before answering, so none is still running when the caller moves on", async () => {
    let done = 0;
    const slow = later(30, "slow").then((v) => (done++, v));
    const [fail, waited] = await sideBySide([failLater(1, "refused"), slow]);
    expect(done).toBe(1);
    expect(() => fail()).toThrow("refused");
    expect(waited()).toBe("slow");
  });
});
