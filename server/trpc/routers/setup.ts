import { z } from "zod";
import { createProperty, getProperty, updateProperty } from "@/server/properties/properties";
import { presentProperty } from "@/server/properties/present";
import { propertyCreateSchema, propertyUpdateSchema } from "@/server/properties/schemas";
import { presentRatePlan } from "@/server/rates/present";
import { createRatePlan, listRatePlans, updateRatePlan } from "@/server/rates/rate-plans";
import { ratePlanCreateSchema, ratePlanUpdateSchema } from "@/server/rates/schemas";
import { presentRoom, presentRoomType } from "@/server/rooms/present";
import { createRoomType, listRoomTypes, updateRoomType } from "@/server/rooms/room-types";
import { createRoomRange, listPropertyRooms, retireRoom, updateRoom } from "@/server/rooms/rooms";
import { roomRangeCreateSchema, roomTypeCreateSchema, roomTypeUpdateSchema, roomUpdateSchema } from "@/server/rooms/schemas";
import { access } from "@/lib/access";
import { bookingEngineUpdateSchema } from "@/server/booking-engine/schemas";
import { getBookingEngine, updateBookingEngine } from "@/server/booking-engine/settings";
import { presentTax } from "@/server/taxes/present";
import { taxCreateSchema, taxUpdateSchema } from "@/server/taxes/schemas";
import { createTax, listTaxes, updateTax } from "@/server/taxes/taxes";
import { roles, router, staffProcedure } from "../init";

// Setting the hotel up (`/settings/…`): the same schemas and services as /v1/properties,
// /v1/room_types, /v1/rooms, /v1/rate_plans and /v1/taxes, for owners and managers (the services put each change on the audit trail).
const setupProcedure = staffProcedure.use(roles(...access.setup));
const id = z.string().min(1).max(64);
const ofProperty = z.strictObject({ property_id: id });
const everything = { limit: 100, cursor: null };

const propertyRouter = router({
  get: setupProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => presentProperty(await getProperty({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  create: setupProcedure
    .input(propertyCreateSchema)
    .mutation(async ({ ctx, input }) => presentProperty(await createProperty({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  update: setupProcedure
    .input(propertyUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentProperty(await updateProperty({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })),
    ),
});

const roomTypesRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const types = await listRoomTypes({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return types.data.map(presentRoomType).sort((a, b) => a.name.localeCompare(b.name));
  }),
  create: setupProcedure
    .input(roomTypeCreateSchema)
    .mutation(async ({ ctx, input }) => presentRoomType(await createRoomType({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  update: setupProcedure
    .input(roomTypeUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentRoomType(await updateRoomType({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })),
    ),
});

const roomsRouter = router({
  list: setupProcedure
    .input(ofProperty.extend({ retired: z.boolean().default(false) }))
    .query(async ({ ctx, input }) =>
      (await listPropertyRooms({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id, retired: input.retired })).map(presentRoom),
    ),
  /** One room or a range (from = to for one), all or none; each room's creation is on its trail. */
  createRange: setupProcedure
    .input(roomRangeCreateSchema)
    .mutation(async ({ ctx, input }) => (await createRoomRange({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input })).rooms.map(presentRoom)),
  update: setupProcedure
    .input(roomUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentRoom(await updateRoom({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })),
    ),
  retire: setupProcedure
    .input(z.strictObject({ id }))
    .mutation(async ({ ctx, input }) => presentRoom(await retireRoom({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id }))),
});

const ratePlansRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const plans = await listRatePlans({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return plans.data.map(presentRatePlan).sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
  }),
  create: setupProcedure
    .input(ratePlanCreateSchema)
    .mutation(async ({ ctx, input }) => presentRatePlan(await createRatePlan({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  update: setupProcedure
    .input(ratePlanUpdateSchema.extend({ id }))
    .mutation(async ({ ctx, input: { id, ...input } }) =>
      presentRatePlan(await updateRatePlan({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input })),
    ),
});

const taxesRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const found = await listTaxes({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return found.data
      .map(({ tax, currency }) => presentTax(tax, currency))
      .sort((a, b) => Number(b.active) - Number(a.active) || a.created_at.localeCompare(b.created_at));
  }),
  create: setupProcedure.input(taxCreateSchema).mutation(async ({ ctx, input }) => {
    const { tax, currency } = await createTax({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input });
    return presentTax(tax, currency);
  }),
  update: setupProcedure.input(taxUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const { tax, currency } = await updateTax({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id, input });
    return presentTax(tax, currency);
  }),
});

/** The property's booking engine (issue 38): the same service as GET and PATCH /v1/properties/{id}/booking_engine. */
const bookingEngineRouter = router({
  get: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => getBookingEngine({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id })),
  update: setupProcedure
    .input(bookingEngineUpdateSchema.extend({ property_id: id }))
    .mutation(async ({ ctx, input: { property_id, ...input } }) => updateBookingEngine({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, propertyId: property_id, input })),
});

export const setupRouter = router({
  bookingEngine: bookingEngineRouter,
  property: propertyRouter,
  roomTypes: roomTypesRouter,
  rooms: roomsRouter,
  ratePlans: ratePlansRouter,
  taxes: taxesRouter,
});
