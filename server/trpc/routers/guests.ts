import { z } from "zod";
import { eraseGuest } from "@/server/guest-data/erase-guest";
import { exportGuest, exportGuestForReading } from "@/server/guest-data/export-guest";
import { createGuest, getGuest, listGuests, updateGuest } from "@/server/guests/guests";
import { getPreferences, mergePreferences, replacePreferences } from "@/server/guests/preferences";
import { presentGuest, presentPreferences } from "@/server/guests/present";
import {
  guestCreateSchema,
  guestEraseSchema,
  guestListQuery,
  guestUpdateSchema,
  preferencesMergeSchema,
  preferencesReplaceSchema,
} from "@/server/guests/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";
import { cursorList, listInput } from "../pagination";

// The same schemas and services as /v1/guests: tRPC adds transport, not rules.
const guestProcedure = staffProcedure.use(roles(...access.guests));
const guestDataProcedure = staffProcedure.use(roles(...access.guestData));
const id = z.string().min(1).max(64);

const preferencesRouter = router({
  get: guestProcedure.input(z.strictObject({ guest_id: id })).query(async ({ ctx, input }) => {
    const { guest, prefs } = await getPreferences({ db: ctx.db, tenant: ctx.tenant, guestId: input.guest_id });
    return presentPreferences(guest, prefs);
  }),
  /** PUT semantics: the input becomes the whole record. */
  replace: guestProcedure.input(preferencesReplaceSchema.extend({ guest_id: id })).mutation(async ({ ctx, input: { guest_id, ...body } }) => {
    const { guest, prefs } = await replacePreferences({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, guestId: guest_id, input: body });
    return presentPreferences(guest, prefs);
  }),
  /** PATCH semantics: `room` and `loyalty` merge key by key, null removes a key. */
  merge: guestProcedure.input(preferencesMergeSchema.extend({ guest_id: id })).mutation(async ({ ctx, input: { guest_id, ...body } }) => {
    const { guest, prefs } = await mergePreferences({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, guestId: guest_id, input: body });
    return presentPreferences(guest, prefs);
  }),
});

export const guestsRouter = router({
  list: guestProcedure
    .input(z.strictObject({ ...guestListQuery.shape, ...listInput }))
    .query(async ({ ctx, input: { limit, cursor, ...filters } }) => {
      const list = cursorList("guests.list", filters, { limit, cursor });
      return list.envelope(await listGuests({ db: ctx.db, tenant: ctx.tenant, filters, page: list.page }), presentGuest);
    }),
  get: guestProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => presentGuest(await getGuest({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  create: guestProcedure
    .input(guestCreateSchema)
    .mutation(async ({ ctx, input }) => presentGuest(await createGuest({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  update: guestProcedure
    .input(guestUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...body } }) =>
      presentGuest(await updateGuest({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input: body })),
    ),
  preferences: preferencesRouter,
  /** Everything held about the guest, as the JSON document `/v1` exports. */
  export: guestDataProcedure.input(z.strictObject({ id })).query(({ ctx, input }) => exportGuest({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  /** The same export with the names its ids stand for, for the page a person reads (and prints). */
  exportForReading: guestDataProcedure.input(z.strictObject({ id })).query(({ ctx, input }) => exportGuestForReading({ db: ctx.db, tenant: ctx.tenant, id: input.id })),
  /** Erases the guest on request; the trail records who erased them and when, and nothing of what was erased. */
  erase: guestDataProcedure
    .input(guestEraseSchema.extend({ id }))
    .mutation(async ({ ctx, input }) => presentGuest((await eraseGuest({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id })).guest)),
});
