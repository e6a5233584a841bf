/**
 * A path item of the OpenAPI document served at the server's origin rather than under its `/v1`
 * server (the OAuth endpoints): it says so with `servers` of its own. Whatever walks the `/v1`
 * operations (tests, the reference page, the client generators) skips these.
 */
export const isOriginPath = (item: unknown): boolean => Array.isArray((item as { servers?: unknown } | null)?.servers);
