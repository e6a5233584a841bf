import { and, eq, getTableName, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Executor } from "@/db/client";
import { ApiError, notFound } from "./errors";
import { keyset, keysetShape, keysetValues, toPage, type Page, type PageRequest } from "./pagination";
import { prepared, preparedQuery } from "@/db/prepared";

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
  if (!row) throw await notFoundHere(exec, table, tenant, id, resource, options.param);
  const propertyId = isPropertiesTable(table) ? (row as { id: string }).id : (row as { propertyId?: string }).propertyId;
  assertPropertyGranted(tenant, propertyId);
  return row;
}

/**
 * The 404 for an id this environment does not hold. Only here, off the hot path, one more lookup
 * by primary key: when the same account's other environment holds the object (within the
 * install's granted properties), the message says so and names the header that reaches it.
 * Another account's object gets the plain 404: nothing crosses accounts.
 */
async function notFoundHere(exec: Executor, table: TenantTable, tenant: Tenant, id: string, resource: string, param?: string): Promise<ApiError> {
  const plain = notFound(resource, id, param);
  const property = isPropertiesTable(table) ? table.id : propertyColumn(table);
  const [elsewhere] = await exec
    .select({ id: table.id, ...(property ? { propertyId: property } : {}) })
    .from(table as PgTable)
    .where(and(eq(table.accountId, tenant.accountId), eq(table.livemode, !tenant.livemode), eq(table.id, id)))
    .limit(1);
  if (!elsewhere) return plain;
  const propertyId = (elsewhere as { propertyId?: string }).propertyId;
  if (tenant.propertyIds && propertyId !== undefined && !tenant.propertyIds.includes(propertyId)) return plain;
  const [here, there] = tenant.livemode ? ["live", "sandbox"] : ["sandbox", "live"];
  const header = tenant.livemode ? "`Service-Environment: sandbox`" : "`Service-Environment: live` (or no `Service-Environment` header)";
  return new ApiError("resource_missing", `${plain.message} in the ${here} environment. It exists in this account's ${there} environment: send ${header} to reach it.`, {
    param: plain.param,
    location: "path",
  });
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
