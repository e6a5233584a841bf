import { eq } from "drizzle-orm";
import { guestPreferences } from "@/db/schema";
import { changesFrom } from "@/server/changes";
import { tenantValues, type Ctx } from "@/server/tenancy";
import { findGuest } from "./guests";
import type { PreferencesMerge, PreferencesReplace } from "./schemas";

/** Preferences (v1.8): allergies, room wishes and loyalty data of a guest. */
export async function getPreferences({ db, tenant, guestId }: Ctx & { guestId: string }) {
  const guest = await findGuest(db, tenant, guestId);
  const [prefs] = await db.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
  return { guest, prefs };
}

/** PUT: the body becomes the whole record. */
export async function replacePreferences({ db, tenant, guestId, input }: Ctx & { guestId: string; input: PreferencesReplace }) {
  const guest = await findGuest(db, tenant, guestId);
  const values = { allergies: input.allergies, room: input.room, loyalty: input.loyalty, updatedAt: new Date() };
  const [prefs] = await db
    .insert(guestPreferences)
    .values({ guestId: guest.id, ...tenantValues(tenant), ...values })
    .onConflictDoUpdate({ target: guestPreferences.guestId, set: values })
    .returning();
  return { guest, prefs };
}

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
export async function mergePreferences({ db, tenant, guestId, input }: Ctx & { guestId: string; input: PreferencesMerge }) {
  return db.transaction(async (tx) => {
    const guest = await findGuest(tx, tenant, guestId, { forUpdate: true });
    const [current] = await tx.select().from(guestPreferences).where(eq(guestPreferences.guestId, guest.id));
    const merged = {
      allergies: input.allergies ?? current?.allergies ?? [],
      room: merge(current?.room ?? {}, input.room),
      loyalty: merge(current?.loyalty ?? {}, input.loyalty),
    };
    if (current && !changesFrom(current, merged)) return { guest, prefs: current };
    const values = { ...merged, updatedAt: new Date() };
    const [prefs] = await tx
      .insert(guestPreferences)
      .values({ guestId: guest.id, ...tenantValues(tenant), ...values })
      .onConflictDoUpdate({ target: guestPreferences.guestId, set: values })
      .returning();
    return { guest, prefs };
  });
}
