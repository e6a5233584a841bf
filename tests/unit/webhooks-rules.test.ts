import { describe, expect, it } from "vitest";
import { breakerShouldOpen } from "@/server/webhooks/breaker";
import { classify, retryAfterSeconds } from "@/server/webhooks/outcome";
import { defaultRetrySchedule, delayBeforeAttempt, parseRetrySchedule } from "@/server/webhooks/settings";
import { assertUrlAllowed, blockedRange } from "@/server/url-guard";

describe("outcomes (specification, Delivery and retry)", () => {
  it("2xx succeeds; 408, 429, 5xx, 3xx and network errors retry; other 4xx fail for good", () => {
    for (const status of [200, 201, 204, 299]) expect(classify({ status, error: null }).result).toBe("succeeded");
    for (const status of [408, 429, 500, 502, 503, 504, 301, 302, 307, 308]) expect(classify({ status, error: null }).result).toBe("retry");
    for (const status of [400, 401, 403, 404, 410, 422]) expect(classify({ status, error: null }).result).toBe("failed");
    expect(classify({ status: null, error: "ECONNRESET" }).result).toBe("retry");
  });

  it("the breaker counts 5xx and network errors, never 3xx or 4xx", () => {
    expect(classify({ status: 503, error: null }).serverError).toBe(true);
    expect(classify({ status: null, error: "timeout" }).serverError).toBe(true);
    for (const status of [200, 302, 400, 408, 429]) expect(classify({ status, error: null }).serverError).toBe(false);
  });

  it("reads Retry-After as seconds or a date", () => {
    expect(retryAfterSeconds({ "retry-after": "7" })).toBe(7);
    expect(retryAfterSeconds({ "retry-after": new Date(Date.now() + 10_000).toUTCString() })).toBeGreaterThanOrEqual(9);
    expect(retryAfterSeconds({})).toBeNull();
  });
});

describe("schedule", () => {
  it("defaults to 0, 30 s, 2 m, 10 m, 1 h, 6 h, 24 h, 72 h", () => {
    expect(parseRetrySchedule(undefined)).toEqual([30, 120, 600, 3600, 21600, 86400, 259200]);
    expect(defaultRetrySchedule).toHaveLength(7);
    const settings = { retrySchedule: parseRetrySchedule(undefined) };
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => delayBeforeAttempt(settings, n))).toEqual([30, 120, 600, 3600, 21600, 86400, 259200]);
  });

  it("WEBHOOK_RETRY_SCHEDULE overrides it and always yields seven delays", () => {
    expect(parseRetrySchedule("1,2,3,4,5,6,7")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parseRetrySchedule("1")).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(parseRetrySchedule("1, 2")).toEqual([1, 2, 2, 2, 2, 2, 2]);
    expect(parseRetrySchedule("1,2,3,4,5,6,7,8,9")).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("circuit breaker rule", () => {
  it("opens above 95 % with at least the minimum of attempts, not at or below", () => {
    expect(breakerShouldOpen({ attempts: 10, serverErrors: 10 }, 10)).toBe(true);
    expect(breakerShouldOpen({ attempts: 9, serverErrors: 9 }, 10)).toBe(false);
    expect(breakerShouldOpen({ attempts: 20, serverErrors: 19 }, 10)).toBe(false); // exactly 95 %
    expect(breakerShouldOpen({ attempts: 100, serverErrors: 96 }, 10)).toBe(true);
    expect(breakerShouldOpen({ attempts: 100, serverErrors: 95 }, 10)).toBe(false);
  });
});

describe("SSRF guard", () => {
  const blocked = [
    "127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.0.1", "100.64.0.1", "100.127.255.254",
    "169.254.169.254", "0.0.0.0", "224.0.0.251", "239.255.255.250", "255.255.255.255",
    "::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::ffff:10.0.0.1",
    "64:ff9b::a9fe:a9fe", "2002:7f00:1::1",
  ];
  const allowed = ["8.8.8.8", "93.184.216.34", "100.128.0.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"];

  it("blocks loopback, private, CGNAT, link-local, unspecified and multicast in every form", () => {
    for (const address of blocked) expect(blockedRange(address), address).not.toBeNull();
    for (const address of allowed) expect(blockedRange(address), address).toBeNull();
  });

  it("refuses at registration a host that is or resolves to a blocked address", async () => {
    const policy = { blockPrivateNetworks: true };
    for (const address of blocked) {
      const host = address.includes(":") ? `[${address}]` : address;
      await expect(assertUrlAllowed(`https://${host}/hook`, policy), address).rejects.toMatchObject({ code: "url_not_allowed" });
    }
    await expect(assertUrlAllowed("http://localhost:3000/hook", policy)).rejects.toMatchObject({ code: "url_not_allowed" });
    const lookup = ((_host: string, _o: unknown, cb: (e: null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: "93.184.216.34", family: 4 }, { address: "127.0.0.1", family: 4 }])) as never;
    await expect(assertUrlAllowed("https://rebind.example/hook", { ...policy, lookup })).rejects.toMatchObject({ code: "url_not_allowed" });
    await expect(assertUrlAllowed("https://8.8.8.8/hook", policy)).resolves.toBeInstanceOf(URL);
    await expect(assertUrlAllowed("http://127.0.0.1/hook", { blockPrivateNetworks: false })).resolves.toBeInstanceOf(URL);
  });

  it("refuses other schemes and credentials everywhere", async () => {
    for (const url of ["ftp://example.com/x", "file:///etc/passwd", "https://user:pw@example.com/x"]) {
      await expect(assertUrlAllowed(url, { blockPrivateNetworks: false }), url).rejects.toMatchObject({ code: "url_not_allowed" });
    }
    await expect(assertUrlAllowed("not a url", { blockPrivateNetworks: false })).rejects.toMatchObject({ code: "parameter_invalid" });
  });
});
