import { index, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * What a data repair changed, field by field, and that it ran: a repair reads the rows a defect
 * damaged once (a row with `outcome: done` says it has), restores what it can and records what it
 * could not, so an operator can see both. First: the erasure that rewrote substrings (issue 41).
 */
export const dataRepairs = pgTable(
  "data_repairs",
  {
    id: text("id").primaryKey(),
    repair: text("repair").notNull(),
    /** The table and row repaired, and the JSON path of the field (`object.guest.id`); null on the `done` row. */
    tableName: text("table_name"),
    rowId: text("row_id"),
    path: text("path"),
    /** The value as the defect left it, and as restored (null where it could not be). */
    damaged: text("damaged"),
    restored: text("restored"),
    /** `restored` (the original, found for certain), `approximated` (a valid stand-in, said so), `unrecoverable` (left as it was), or `done`. */
    outcome: text("outcome", { enum: ["restored", "approximated", "unrecoverable", "done"] }).notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("data_repairs_repair_idx").on(t.repair, t.outcome)],
);
