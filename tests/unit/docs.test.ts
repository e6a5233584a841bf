import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientGuideMarkdown, clientGuides } from "@/components/api-reference/clients";
import { errorCodes } from "@/server/errors";
import { apiVersions } from "@/server/http/versions";

// Issue #14, point 6: whoever clones Innkeep finds the whole contract in it. No document points at a
// file outside the repository, every relative link resolves, and the conventions page covers what
// the OpenAPI document cannot say.

const root = path.resolve(".");
const documents = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
/** A page of the site's own docs that a document may link to by its URL path: a client's guide. */
const clientPages = clientGuides.map((c) => `/docs/clients/${c.slug}`);
/** What a page of /docs must not say: it sends a hosted API's user to files they do not have (`/docs/clients/…` is a page). */
const pointsIntoTheRepository = /repository|README|decisions\.md|webhooks\.md|npm run|\bserver\/|(?<!\/docs\/)\bclients\//;

describe("the project's documents stand on their own", () => {
  it.each(documents)("%s names no path outside the repository", (file) => {
    const text = readFileSync(file, "utf8");
    // Absolute paths of a machine (not URL paths like /v1/… or /usr/bin/chromium named as a dependency).
    expect(text).not.toMatch(/\/(work|home|Users|root|tmp)\/[\w.-]/);
    expect(text).not.toMatch(/shared\/spec|contract\.md|platform-spec/);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // a web address
      if (clientPages.includes(target)) continue; // a page of /docs
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
    expect(text).not.toMatch(pointsIntoTheRepository);
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      expect(["api-conventions.md", "quickstart.md", ...clientPages], `${file} → ${target}`).toContain(target);
    }
  });

  // Issue 25 (docs): each client's README, shown on /docs/clients/<slug> without its sections about
  // the repository, stands alone too, and the conventions' client section links all four.
  it.each(clientGuides)("the $language client's guide on /docs sends nobody to the repository", (guide) => {
    const readme = readFileSync(`clients/${guide.folder}/README.md`, "utf8");
    const page = clientGuideMarkdown(readme, guide.install);
    expect(page).not.toMatch(pointsIntoTheRepository);
    expect(page).not.toMatch(/`examples\//);
    // What an integrator needs is kept: configuring, every section of the API's features, webhooks.
    for (const section of ["## Install", "## Configure", "## Pagination", "## Retries and idempotency", "## Errors", "## Webhooks"]) expect(page).toContain(section);
    expect(page.match(/^## Install$/gm)).toHaveLength(1);
    expect(page).toContain(guide.name);
    for (const left of ["## Development", "## Examples"]) expect(page).not.toContain(left);
    const conventions = readFileSync("docs/api-conventions.md", "utf8");
    const section = conventions.slice(conventions.indexOf("## 10. Client libraries"));
    expect(section).toContain(`](/docs/clients/${guide.slug})`);
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

// Issue 40, point 4: what the clients' READMEs and examples say is what works.
describe("the client libraries' READMEs and examples say the truth", () => {
  const folders = ["typescript", "python", "go", "php"];
  const readme = (folder: string) => readFileSync(`clients/${folder}/README.md`, "utf8");
  const examples = folders.flatMap((folder) =>
    readdirSync(`clients/${folder}/examples`, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(ts|py|go|php)$/.test(f))
      .map((f) => `clients/${folder}/examples/${f}`),
  );

  it.each(folders)("the %s README pins only versions the server accepts", (folder) => {
    const pins = [...readme(folder).matchAll(/\b(20\d\d-\d\d-\d\d)\b[^\n]*Service-Version|(?:version|Version)\W{1,6}(20\d\d-\d\d-\d\d)/g)].map((m) => m[1] ?? m[2]);
    expect(pins.length, "the README shows a version pin").toBeGreaterThan(0);
    for (const pin of pins) expect(apiVersions as readonly string[]).toContain(pin);
  });

  it.each(folders)("the %s README's error table names every status of the error table", (folder) => {
    const text = readme(folder);
    const section = text.slice(text.indexOf("## Errors"), text.indexOf("\n## ", text.indexOf("## Errors") + 1));
    const listed = new Set(section.match(/\b[45]\d\d\b/g));
    for (const status of new Set(Object.values(errorCodes).map((e) => e.status))) expect(listed, `${folder}: ${status}`).toContain(String(status));
  });

  it("every Python snippet that reads os imports it", () => {
    for (const [, block] of readme("python").matchAll(/```python\n([\s\S]*?)```/g)) {
      if (/\bos\.(environ|getenv)/.test(block) && !/^import os$/m.test(block) && /^(from|import) /m.test(block)) expect.fail(`a snippet reads os without importing it:\n${block}`);
    }
  });

  it("the examples read one variable for the server, INNKEEP_BASE_URL, and book only in the sandbox", () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const file of examples) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toMatch(/INNKEEP_URL\b/);
      if (/base_?url/i.test(text)) expect(text, file).toContain("INNKEEP_BASE_URL");
      if (/book/i.test(path.basename(file))) expect(text, `${file} books in the sandbox`).toMatch(/environment\W{1,6}sandbox|WithEnvironment\("sandbox"\)/);
    }
  });

  it("integrators verify webhooks with the clients' helpers, not a file of the server", () => {
    for (const file of [...documents, ...folders.map((f) => `clients/${f}/README.md`)]) {
      expect(readFileSync(file, "utf8"), file).not.toContain("server/webhooks/verify-signature");
    }
    const webhooksDoc = readFileSync("docs/webhooks.md", "utf8");
    for (const helper of ["Innkeep.webhooks.constructEvent", "innkeep.Webhook.construct_event", "webhook.ConstructEvent", "\\Innkeep\\Webhook::constructEvent"]) expect(webhooksDoc).toContain(helper);
  });
});
