import { and, eq, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Executor } from "@/db/client";
import { ApiError, notFound } from "./errors";
import { keyset, keysetShape, keysetValues, toPage, type Page, type PageRequest } from "./pagination";
import { prepared, preparedQuery } from "./prepared";

/**
 * Who is asking: an account, one of its two environments, and (for OAuth installs) the
 * properties the install was granted. Every service takes one; no query is written without it.
 */
export type Tenant = {
  accountId: string;
  livemode: boolean;
  /** null: every property of the account. */
  propertyIds: readonly string[] | null;
};

/** The options object every service receives. */
export type Ctx = { db: Db; tenant: Tenant };

type TenantTable = PgTable & { accountId: PgColumn; livemode: PgColumn; id: PgColumn };

/** The property a row belongs to, for tables that belong to one. */
function propertyColumn(table: TenantTable): PgColumn | undefined {
  return (table as unknown as { propertyId?: PgColumn }).propertyId;
}

/**
 * The WHERE clause that confines a query to the tenant: account, environment and, for OAuth
 * installs, the granted properties. Lists use it; so does every lookup through `findOwned`.
 */
export function ownedBy(table: TenantTable, tenant: Tenant, ...conditions: (SQL | undefined)[]): SQL {
  const granted = tenant.propertyIds;
  const property = isPropertiesTable(table) ? table.id : propertyColumn(table);
  return and(
    eq(table.accountId, tenant.accountId),
    eq(table.livemode, tenant.livemode),
    granted && property ? (granted.length ? inArray(property, [...granted]) : sql`false`) : undefined,
    ...conditions,
  )!;
}

function isPropertiesTable(table: TenantTable): boolean {
  return getTableName(table) === "properties";
}

/** Values that stamp a new row with its tenant. */
export const tenantValues = (tenant: Tenant) => ({ accountId: tenant.accountId, livemode: tenant.livemode });

/**
 * One row by id, or 404 `resource_missing`: an object of another account or environment is
 * indistinguishable from one that does not exist. A property outside an OAuth grant answers 403.
 */
export async function findOwned<T extends TenantTable>(
  exec: Executor,
  table: T,
  tenant: Tenant,
  id: string,
  resource: string,
  options: { param?: string; forUpdate?: boolean } = {},
): Promise<T["$inferSelect"]> {
  // The lookup of nearly every request by id: built once per table (and lock), then only run.
  const name = `find_${getTableName(table)}${options.forUpdate ? "_for_update" : ""}`;
  const rows = (await preparedQuery(exec, name, { account: tenant.accountId, livemode: tenant.livemode, id }, (p) => {
    const query = exec
      .select()
      .from(table as PgTable)
      .where(and(eq(table.accountId, p("account")), eq(table.livemode, p("livemode")), eq(table.id, p("id"))));
    return options.forUpdate ? query.for("update") : query;
  })) as T["$inferSelect"][];
  const row = rows[0];
  if (!row) throw notFound(resource, id, options.param);
  const propertyId = isPropertiesTable(table) ? (row as { id: string }).id : (row as { propertyId?: string }).propertyId;
  assertPropertyGranted(tenant, propertyId);
  return row;
}

export function assertPropertyGranted(tenant: Tenant, propertyId: string | undefined): void {
  if (!tenant.propertyIds || propertyId === undefined) return;
  if (!tenant.propertyIds.includes(propertyId)) {
    throw new ApiError("property_not_granted", `This app was not granted access to property '${propertyId}'.`);
  }
}

/**
 * One page of a tenant's rows, newest first: the keyset conditions of `page` inside the
 * tenant's scope, cut to the page with cursors both ways. Every plain list is this query.
 */
export async function listOwned<T extends TenantTable & { createdAt: PgColumn }>(
  db: Executor,
  table: T,
  tenant: Tenant,
  page: PageRequest,
  ...conditions: (SQL | undefined)[]
): Promise<Page<T["$inferSelect"] & { id: string; createdAt: Date }>> {
  type Row = T["$inferSelect"] & { id: string; createdAt: Date };
  // The common case, an unfiltered list for a whole account, runs a prepared statement.
  if (tenant.propertyIds === null && conditions.every((c) => c === undefined)) {
    const { direction, values } = keysetValues(page);
    const name = `list_${getTableName(table)}_${direction}`;
    const statement = prepared(db, name, () => {
      const q = keysetShape(table, direction);
      return db
        .select()
        .from(table as PgTable)
        .where(and(eq(table.accountId, sql.placeholder("account")), eq(table.livemode, sql.placeholder("livemode")), q.where))
        .orderBy(...q.orderBy)
        .limit(q.limit)
        .prepare(name);
    });
    const rows = await statement.execute({ ...values, account: tenant.accountId, livemode: tenant.livemode });
    return toPage(rows as Row[], page);
  }
  const q = keyset(table, page);
  const rows = await db
    .select()
    .from(table as PgTable)
    .where(ownedBy(table, tenant, ...conditions, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit);
  return toPage(rows as (T["$inferSelect"] & { id: string; createdAt: Date })[], page);
}
