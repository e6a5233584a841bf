import { eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { properties, taxes } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { newId } from "@/server/ids";
import type { PageRequest } from "@/server/pagination";
import { findOwned, listOwned, tenantValues, type Ctx } from "@/server/tenancy";
import { presentTax } from "./present";
import type { TaxCreate, TaxUpdate } from "./schemas";

type TaxRow = typeof taxes.$inferSelect;
type Shape = Pick<TaxRow, "kind" | "inclusive" | "appliesTo"> & { percentage: number | null; amount: number | null };

/** The rules of a tax's shape the schema alone cannot say, each refused with the field at fault. */
function assertShape(t: Shape) {
  if (t.kind === "percentage") {
    if (t.percentage === null) throw new ApiError("parameter_missing", "A percentage tax needs its percentage.", { param: "percentage" });
    if (t.amount !== null)
      throw new ApiError("parameter_invalid", "A percentage tax has no amount; use kind per_night or per_person_per_night for a fixed fee.", {
        param: "amount",
      });
    return;
  }
  if (t.amount === null) throw new ApiError("parameter_missing", "A per-night tax needs its amount (minor units).", { param: "amount" });
  if (t.percentage !== null)
    throw new ApiError("parameter_invalid", "A per-night tax has no percentage; use kind percentage for a rate.", { param: "percentage" });
  if (t.inclusive)
    throw new ApiError("parameter_invalid", "Only a percentage can be inside the price; a per-night tax is always added.", { param: "inclusive" });
  if (t.appliesTo !== "room_nights") throw new ApiError("parameter_invalid", "A per-night tax applies to room nights only.", { param: "applies_to" });
}

const thousandths = (percentage: number | null) => (percentage === null ? null : Math.round(percentage * 1000));

async function currencyOf(db: Executor, propertyId: string) {
  const [p] = await db.select({ currency: properties.currency }).from(properties).where(eq(properties.id, propertyId));
  return p.currency;
}

/** A tax's event and its trail entry (with the tax as it was, for a change), in the change's transaction. */
function changed(
  tx: Executor,
  who: Pick<ChangeCtx, "tenant" | "actor">,
  type: "tax.created" | "tax.updated",
  row: TaxRow,
  currency: string,
  before?: TaxRow,
) {
  const after = presentTax(row, currency);
  return recordChange(tx, who, [{ type, propertyId: row.propertyId, object: after }], {
    action: type,
    objectType: "tax",
    objectId: row.id,
    ...(before && { before: presentTax(before, currency) }),
    after,
  });
}

/** Taxes of the account (of one property with `property_id`), newest first, with their property's currency. */
export async function listTaxes({ db, tenant, filters, page }: Ctx & { filters: { property_id?: string }; page: PageRequest }) {
  const result = await listOwned(db, taxes, tenant, page, filters.property_id ? eq(taxes.propertyId, filters.property_id) : undefined);
  const ids = [...new Set(result.data.map((t) => t.propertyId))];
  const currencies = ids.length
    ? await db.select({ id: properties.id, currency: properties.currency }).from(properties).where(inArray(properties.id, ids))
    : [];
  const byId = new Map(currencies.map((p) => [p.id, p.currency]));
  return { ...result, data: result.data.map((t) => ({ tax: t, currency: byId.get(t.propertyId)! })) };
}

export async function getTax({ db, tenant, id }: Ctx & { id: string }) {
  const tax = await findOwned(db, taxes, tenant, id, "tax");
  return { tax, currency: await currencyOf(db, tax.propertyId) };
}

/** A new tax of a property, applied to every line posted from now on; emits `tax.created`. */
export async function createTax({ db, tenant, actor, input }: ChangeCtx & { input: TaxCreate }) {
  const property = await findOwned(db, properties, tenant, input.property_id, "property", { param: "property_id" });
  const shape = {
    kind: input.kind,
    percentage: input.percentage ?? null,
    amount: input.amount ?? null,
    inclusive: input.inclusive ?? false,
    appliesTo: input.applies_to ?? "room_nights",
  };
  assertShape(shape);
  return db.transaction(async (tx) => {
    const [tax] = await tx
      .insert(taxes)
      .values({
        id: newId("tax"),
        ...tenantValues(tenant),
        propertyId: property.id,
        name: input.name,
        kind: shape.kind,
        percentThousandths: thousandths(shape.percentage),
        amount: shape.amount,
        inclusive: shape.inclusive,
        appliesTo: shape.appliesTo,
      })
      .returning();
    await changed(tx, { tenant, actor }, "tax.created", tax, property.currency);
    return { tax, currency: property.currency };
  });
}

/** Changes a tax for the lines posted from now on (those posted keep theirs); emits `tax.updated`. */
export async function updateTax({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: TaxUpdate }) {
  return db.transaction(async (tx) => {
    const current = await findOwned(tx, taxes, tenant, id, "tax", { forUpdate: true });
    const shape = {
      kind: current.kind,
      percentage: input.percentage ?? (current.percentThousandths === null ? null : current.percentThousandths / 1000),
      amount: input.amount ?? current.amount,
      inclusive: input.inclusive ?? current.inclusive,
      appliesTo: input.applies_to ?? current.appliesTo,
    };
    assertShape(shape);
    const [tax] = await tx
      .update(taxes)
      .set({
        name: input.name ?? current.name,
        percentThousandths: thousandths(shape.percentage),
        amount: shape.amount,
        inclusive: shape.inclusive,
        appliesTo: shape.appliesTo,
        active: input.active ?? current.active,
        updatedAt: new Date(),
      })
      .where(eq(taxes.id, current.id))
      .returning();
    const currency = await currencyOf(tx, tax.propertyId);
    await changed(tx, { tenant, actor }, "tax.updated", tax, currency, current);
    return { tax, currency };
  });
}
