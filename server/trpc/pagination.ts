import { z } from "zod";
import { filterFingerprint, listEnvelope, pageRequest } from "@/server/http/pagination";
import type { Page } from "@/server/pagination";

/** `limit` and `cursor`, as every `/v1` list takes them (contract §5). */
export const listInput = {
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().max(512).optional(),
};

/**
 * Cursor paging for one tRPC list, with the `/v1` envelope and cursors: a cursor is bound to
 * the list and its filters, so one made for other filters answers `invalid_cursor`.
 */
export function cursorList(list: string, filters: Record<string, unknown>, input: { limit: number; cursor?: string }) {
  const fingerprint = filterFingerprint(`trpc:${list}`, filters);
  return {
    page: pageRequest(input, fingerprint),
    envelope: <T, R>(page: Page<T>, present: (row: T) => R) => listEnvelope(page, fingerprint, present),
  };
}
