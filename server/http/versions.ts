/**
 * Dated API versions, oldest first. A request pins one with `Service-Version`; otherwise the
 * account's pinned version applies. All of them share today's schema: a version that changes a
 * shape adds its transform here, keyed by date.
 */
export const apiVersions = [
  "2025-03-01", // v1.6: housekeeping assignments
  "2025-06-01", // v1.7: cursor pagination on /payments, offset deprecated
  "2025-09-01", // v1.8: guest preferences
] as const;

export type ApiVersion = (typeof apiVersions)[number];
export const latestApiVersion: ApiVersion = apiVersions[apiVersions.length - 1];

export const isApiVersion = (value: string): value is ApiVersion => (apiVersions as readonly string[]).includes(value);
