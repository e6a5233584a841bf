import { z } from "@hono/zod-openapi";
import { and, ilike, or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { guests } from "@/db/schema";

/**
 * The `search` parameter of `GET /v1/guests` and `GET /v1/reservations` (and the dashboard's
 * search boxes): free text, 1–200 characters once trimmed.
 */
export const searchTerm = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200)
  .openapi({
    description:
      "Any part of a guest's first or last name, e-mail or phone, case- and accent-insensitive; every word must match. Words of digits match the phone's digits whatever its punctuation.",
    example: "walt",
  });

/** `%` and `_` typed by a clerk are letters, not wildcards. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The words of a term: "Quince, Zelda" is two words. */
const words = (term: string) => term.split(/[\s,;]+/).filter(Boolean);

/** A word that is a piece of a phone number ("+1", "(617)", "555-0101"): matched by its digits. */
const phoneWord = /^[+0-9 ()./-]*[0-9][+0-9 ()./-]*$/;

/**
 * The words of a search, each as a pattern over `guests.search_text` (names and e-mail folded
 * to lower case without accents, then the phone's digits; db/migrations/0012_find_anyone.sql).
 * The folding is the database's own (`innkeep_fold`), so "Zoë", "zoe" and "ZOË" are one word.
 */
function wordMatches(term: string, column: PgColumn | SQL): SQL[] {
  return words(term)
    .map((word) => {
      const text = phoneWord.test(word) ? word.replace(/[^0-9]/g, "") : word;
      return sql`${column} like '%' || innkeep_fold(${likeEscape(text)}) || '%'`;
    });
}

/** Guests whose name, e-mail or phone contain every word of the term (served by a trigram index). */
export function guestSearch(term: string): SQL {
  const matches = wordMatches(term, guests.searchText);
  // A term of separators alone ("," say) names nobody.
  return matches.length ? and(...matches)! : sql`false`;
}

/**
 * Reservations whose guest matches the term, or whose id contains it (a clerk reading part of a
 * confirmation aloud): for a query that joins the reservation's guest.
 */
export function reservationSearch(term: string, reservationId: PgColumn): SQL {
  const [first, ...rest] = words(term);
  const byId = first && !rest.length ? ilike(reservationId, `%${likeEscape(first)}%`) : undefined;
  return or(guestSearch(term), byId)!;
}
