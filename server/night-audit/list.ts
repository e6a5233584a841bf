import { eq } from "drizzle-orm";
import { nightAudits, properties } from "@/db/schema";
import { findOwned, listOwned, type Ctx } from "@/server/tenancy";
import { presentNightAudit } from "./present";

/** A property's latest night audits, newest first (the reports page's flash reports). */
export async function listNightAudits({ db, tenant, propertyId, limit }: Ctx & { propertyId: string; limit: number }) {
  await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const page = await listOwned(db, nightAudits, tenant, { limit, cursor: null }, eq(nightAudits.propertyId, propertyId));
  return page.data.map(presentNightAudit);
}
