import { boolean, text, timestamp } from "drizzle-orm/pg-core";

/** Millisecond precision matches JavaScript dates, so cursors built from them compare exactly. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

/** Columns every tenant-owned row carries: the account and the environment it lives in. */
export const tenantColumns = () => ({
  accountId: text("account_id").notNull(),
  livemode: boolean("livemode").notNull(),
});

export const timestamps = () => ({
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
