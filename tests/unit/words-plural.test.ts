import { describe, expect, it } from "vitest";
import { inflect, plural } from "@/lib/words";

describe("counts in words", () => {
  it("puts the noun in the number the count asks for", () => {
    expect(plural(0, "night")).toBe("0 nights");
    expect(plural(1, "night")).toBe("1 night");
    expect(plural(2, "night")).toBe("2 nights");
    expect(plural(1, "child", "children")).toBe("1 child");
    expect(plural(3, "child", "children")).toBe("3 children");
    expect(plural(1, "delivery", "deliveries")).toBe("1 delivery");
    expect(plural(12, "delivery", "deliveries")).toBe("12 deliveries");
  });

  it("lets the verb agree with its subject: '1 delivery is held and goes out'", () => {
    const held = (n: number) => `${n} ${inflect(n, { one: "delivery is held and goes", other: "deliveries are held and go" })} out`;
    expect(held(1)).toBe("1 delivery is held and goes out");
    expect(held(2)).toBe("2 deliveries are held and go out");
    expect(held(0)).toBe("0 deliveries are held and go out");
  });
});
