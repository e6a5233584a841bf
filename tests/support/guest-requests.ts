// The booking engine's public endpoints as a guest's browser calls them: no credential, a form or
// JSON body, redirects not followed (the forms answer 303), and each request from an address of its
// own (X-Forwarded-For, trusted from loopback) unless one is given, so the per-address limits count
// a test's requests alone.

type Guest = { address?: string };
type Answer = { status: number; headers: Headers; text: string; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Requests to `baseUrl()` (read at call time: the harness starts in beforeAll) from addresses `${prefix}.N`. */
export function guestRequests(baseUrl: () => string, prefix: string) {
  let count = 0;
  const freshAddress = () => `${prefix}.${++count}`;
  async function raw(method: string, path: string, init: { body?: string; type?: string; address?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { "x-forwarded-for": init.address ?? freshAddress() };
    if (init.type) headers["content-type"] = init.type;
    const res = await fetch(`${baseUrl()}${path}`, { method, headers, body: init.body, redirect: "manual" });
    const text = await res.text();
    let json: Answer["json"];
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }
  const encode = (fields: Record<string, string | number>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
  return {
    raw,
    freshAddress,
    /** How many addresses have been used so far (a unique suffix for a test's e-mails). */
    used: () => count,
    search: (slug: string, query: Record<string, string | number>, g: Guest = {}) => raw("GET", `/book-api/${slug}/search?${encode(query)}`, g),
    postJson: (path: string, body: unknown, g: Guest = {}) => raw("POST", path, { body: JSON.stringify(body), type: "application/json", ...g }),
    postForm: (path: string, body: Record<string, string | number>, g: Guest = {}) => raw("POST", path, { body: encode(body), type: "application/x-www-form-urlencoded", ...g }),
  };
}
