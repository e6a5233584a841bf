import { eq } from "drizzle-orm";
import { guestPreferences } from "@/db/schema";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { changesFrom } from "@/server/changes";
import { tenantValues, type Ctx } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { findGuest } from "./guests";
import { presentPreferences } from "./present";
import type { PreferencesMerge, PreferencesReplace } from "./schemas";

type Prefs = typeof guestPreferences.$inferSelect;

/** Preferences (v1.8): allergies, room wishes and loyalty data of a guest. */
export async function getPreferences({ db, tenant, guestId }: Ctx & { guestId: string }) {
  const guest = await findGuest(db, tenant, guestId);
  const [prefs] = await db.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
  return { guest, prefs };
}

/**
 * Writes a guest's preferences from the record there now (the guest locked, so two writes queue),
 * with `guest.preferences_updated` (the preferences as `GET` now answers them) and the trail's
 * entry (before and after) in the same transaction; a write that changes nothing is no write.
 */
function writePreferences(
  { db, tenant, actor, guestId }: ChangeCtx & { guestId: string },
  action: string,
  next: (current: Prefs | undefined) => Pick<Prefs, "allergies" | "room" | "loyalty">,
) {
  return inTransaction(db, async (tx) => {
    const guest = await findGuest(tx, tenant, guestId, { forUpdate: true });
    const [current] = await tx.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
    const proposed = next(current);
    if (current && !changesFrom(current, proposed)) return { guest, prefs: current };
    const values = { ...proposed, updatedAt: new Date() };
    const [prefs] = await tx
      .insert(guestPreferences)
      .values({ guestId: guest.id, ...tenantValues(tenant), ...values })
      .onConflictDoUpdate({ target: guestPreferences.guestId, set: values })
      .returning();
    const after = presentPreferences(guest, prefs);
    // PUT and PATCH alike: subscribers and open guest pages learn of the new allergies at once.
    await recordChange(tx, { tenant, actor }, [{ type: "guest.preferences_updated", propertyId: null, object: after }], {
      action,
      objectType: "guest",
      objectId: guest.id,
      before: presentPreferences(guest, current),
      after,
    });
    return { guest, prefs };
  });
}

/** PUT: the body becomes the whole record. */
export const replacePreferences = ({ input, ...ctx }: ChangeCtx & { guestId: string; input: PreferencesReplace }) =>
  writePreferences(ctx, "guest.preferences_replaced", () => ({ allergies: input.allergies, room: input.room, loyalty: input.loyalty }));

/** Drops keys set to null, overlays the rest. */
function merge<T extends object>(current: T, patch: Record<string, unknown> | undefined): T {
  if (!patch) return current;
  const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else if (value !== undefined) next[key] = value;
  }
  return next as T;
}

/** PATCH: `room` and `loyalty` merge key by key (null removes a key); `allergies` is replaced whole. */
export const mergePreferences = ({ input, ...ctx }: ChangeCtx & { guestId: string; input: PreferencesMerge }) =>
  writePreferences(ctx, "guest.preferences_updated", (current) => ({
    allergies: input.allergies ?? current?.allergies ?? [],
    room: merge(current?.room ?? {}, input.room),
    loyalty: merge(current?.loyalty ?? {}, input.loyalty),
  }));
