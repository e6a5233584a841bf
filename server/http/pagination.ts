import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { ApiError } from "@/server/errors";
import type { CursorPosition, Page, PageRequest } from "@/server/pagination";
import { queryInteger } from "@/server/schemas";
import { isStorableText } from "./validation";

/** Query parameters every list accepts (contract §5). */
export const listQuery = {
  limit: queryInteger({ min: 1, max: 100 })
    .default(25)
    .openapi({ description: "Items per page, 1–100.", example: 25, default: 25 }),
  cursor: z
    .string()
    .max(512)
    .optional()
    .openapi({ description: "A `next_cursor` or `prev_cursor` from an earlier page of the same list and filters." }),
};

/** A hash of the list and its filters: a cursor only works with the list that made it. */
export function filterFingerprint(path: string, filters: Record<string, unknown>): string {
  const keys = Object.keys(filters)
    .filter((k) => k !== "limit" && k !== "cursor" && filters[k] !== undefined)
    .sort();
  const canonical = JSON.stringify([path, keys.map((k) => [k, String(filters[k])])]);
  return createHash("sha256").update(canonical).digest("base64url").slice(0, 16);
}

function encodeCursor(position: CursorPosition, fingerprint: string): string {
  const payload = [position.direction === "next" ? "n" : "p", position.createdAt.getTime(), position.id, fingerprint];
  return Buffer.from(JSON.stringify(payload)).toString("base64url");
}

// Bounded like the values this API issues: a forged cursor must be a 400, not an invalid Date
// or an unstorable string failing in the database.
const cursorPayload = z.tuple([
  z.enum(["n", "p"]),
  z.number().int().nonnegative().max(8.64e15),
  z.string().min(1).max(255).refine(isStorableText),
  z.string(),
]);

function decodeCursor(cursor: string, fingerprint: string): CursorPosition {
  let parsed: z.infer<typeof cursorPayload> | undefined;
  try {
    parsed = cursorPayload.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    parsed = undefined;
  }
  if (!parsed) throw new ApiError("invalid_cursor", "The cursor is not one this API issued.", { param: "cursor" });
  if (parsed[3] !== fingerprint) {
    throw new ApiError("invalid_cursor", "The cursor was issued for another list or other filters; send the same filters with it.", {
      param: "cursor",
    });
  }
  return { direction: parsed[0] === "n" ? "next" : "prev", createdAt: new Date(parsed[1]), id: parsed[2] };
}

export function pageRequest(query: { limit: number; cursor?: string }, fingerprint: string): PageRequest {
  return { limit: query.limit, cursor: query.cursor ? decodeCursor(query.cursor, fingerprint) : null };
}

/** The list envelope of contract §5. */
export function listEnvelope<T, R>(page: Page<T>, fingerprint: string, present: (row: T) => R) {
  return {
    object: "list" as const,
    data: page.data.map(present),
    has_more: page.hasMore,
    next_cursor: page.next ? encodeCursor(page.next, fingerprint) : null,
    prev_cursor: page.prev ? encodeCursor(page.prev, fingerprint) : null,
  };
}

export const listSchema = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      object: z.literal("list"),
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable(),
      prev_cursor: z.string().nullable(),
    })
    .openapi(name);
