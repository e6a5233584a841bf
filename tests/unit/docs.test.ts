import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue #14, point 6: whoever clones Innkeep finds the whole contract in it. No document points at a
// file outside the repository, every relative link resolves, and the conventions page covers what
// the OpenAPI document cannot say.

const root = path.resolve(".");
const documents = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("the project's documents stand on their own", () => {
  it.each(documents)("%s names no path outside the repository", (file) => {
    const text = readFileSync(file, "utf8");
    // Absolute paths of a machine (not URL paths like /v1/… or /usr/bin/chromium named as a dependency).
    expect(text).not.toMatch(/\/(work|home|Users|root|tmp)\/[\w.-]/);
    expect(text).not.toMatch(/shared\/spec|contract\.md|platform-spec/);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // a web address
      const resolved = path.resolve(path.dirname(file), target);
      expect(resolved.startsWith(root + path.sep), `${file} → ${target} leaves the repository`).toBe(true);
      expect(existsSync(resolved), `${file} → ${target} does not exist`).toBe(true);
    }
  });

  it("docs/api-conventions.md covers the conventions a schema cannot carry, and points at the document", () => {
    const text = readFileSync("docs/api-conventions.md", "utf8");
    for (const topic of ["## 2. Errors", "Idempotency", "Pagination", "Rate limits", "## 8. Sandbox", "Signing", "Retries", "## 4. OAuth"]) expect(text).toContain(topic);
    for (const code of ["invalid_json", "amount_exceeds_refundable", "idempotency_key_reused", "too_many_requests", "url_not_allowed"]) expect(text).toContain(code);
    expect(text).toContain("/v1/openapi.json");
    expect(text).toContain("`/docs`");
  });

  // Issue 24, item 2: /docs renders these two for users of a hosted API, who have no repository.
  it.each(["docs/api-conventions.md", "docs/quickstart.md"])("%s, shown on /docs, sends nobody to a file or the repository", (file) => {
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/repository|README|decisions\.md|webhooks\.md|npm run|\bserver\/|\bclients\//);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      expect(["api-conventions.md", "quickstart.md"], `${file} → ${target}`).toContain(target);
    }
  });

  it("the conventions page covers versioning and signature verification, the quickstart both OAuth libraries and local http", () => {
    const conventions = readFileSync("docs/api-conventions.md", "utf8");
    for (const topic of ["## 9. Versioning", "Service-Version", "Verifying a delivery", "timingSafeEqual", "Service-Signature"]) expect(conventions).toContain(topic);
    const quickstart = readFileSync("docs/quickstart.md", "utf8");
    for (const topic of ["openid-client", "oauth4webapi", "allowInsecureRequests", "code_challenge_method", "/.well-known/oauth-authorization-server"]) expect(quickstart).toContain(topic);
    expect(readFileSync("README.md", "utf8")).toContain("allowInsecureRequests");
  });

  it("README and decisions send the reader to it", () => {
    expect(readFileSync("README.md", "utf8")).toContain("docs/api-conventions.md");
    expect(readFileSync("docs/decisions.md", "utf8")).toContain("api-conventions.md");
  });
});
