import { z } from "zod";
import { createProperty, getProperty, updateProperty } from "@/server/properties/properties";
import { presentProperty } from "@/server/properties/present";
import { propertyCreateSchema, propertyUpdateSchema } from "@/server/properties/schemas";
import { presentRatePlan } from "@/server/rates/present";
import { createRatePlan, getRatePlan, listRatePlans, updateRatePlan } from "@/server/rates/rate-plans";
import { ratePlanCreateSchema, ratePlanUpdateSchema } from "@/server/rates/schemas";
import { presentRoom, presentRoomType } from "@/server/rooms/present";
import { createRoomType, getRoomType, listRoomTypes, updateRoomType } from "@/server/rooms/room-types";
import { createRoomRange, getRoom, listPropertyRooms, retireRoom, updateRoom } from "@/server/rooms/rooms";
import { roomRangeCreateSchema, roomTypeCreateSchema, roomTypeUpdateSchema, roomUpdateSchema } from "@/server/rooms/schemas";
import { access } from "@/server/staff/access";
import { presentTax } from "@/server/taxes/present";
import { taxCreateSchema, taxUpdateSchema } from "@/server/taxes/schemas";
import { createTax, getTax, listTaxes, updateTax } from "@/server/taxes/taxes";
import { audit } from "../audit";
import { roles, router, staffProcedure } from "../init";

// Setting the hotel up (`/settings/…`): the same schemas and services as /v1/properties,
// /v1/room_types, /v1/rooms, /v1/rate_plans and /v1/taxes, for owners and managers, each change audited.
const setupProcedure = staffProcedure.use(roles(...access.setup));
const id = z.string().min(1).max(64);
const ofProperty = z.strictObject({ property_id: id });
const everything = { limit: 100, cursor: null };

const propertyRouter = router({
  get: setupProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => presentProperty(await getProperty({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  create: setupProcedure.input(propertyCreateSchema).mutation(async ({ ctx, input }) => {
    const after = presentProperty(await createProperty({ db: ctx.db, tenant: ctx.tenant, input }));
    await audit(ctx, { action: "property.created", objectType: "property", objectId: after.id, after });
    return after;
  }),
  update: setupProcedure.input(propertyUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const before = presentProperty(await getProperty({ db: ctx.db, tenant: ctx.tenant, id }));
    const after = presentProperty(await updateProperty({ db: ctx.db, tenant: ctx.tenant, id, input }));
    await audit(ctx, { action: "property.updated", objectType: "property", objectId: id, before, after });
    return after;
  }),
});

const roomTypesRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const types = await listRoomTypes({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return types.data.map(presentRoomType).sort((a, b) => a.name.localeCompare(b.name));
  }),
  create: setupProcedure.input(roomTypeCreateSchema).mutation(async ({ ctx, input }) => {
    const after = presentRoomType(await createRoomType({ db: ctx.db, tenant: ctx.tenant, input }));
    await audit(ctx, { action: "room_type.created", objectType: "room_type", objectId: after.id, after });
    return after;
  }),
  update: setupProcedure.input(roomTypeUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const before = presentRoomType(await getRoomType({ db: ctx.db, tenant: ctx.tenant, id }));
    const after = presentRoomType(await updateRoomType({ db: ctx.db, tenant: ctx.tenant, id, input }));
    await audit(ctx, { action: "room_type.updated", objectType: "room_type", objectId: id, before, after });
    return after;
  }),
});

const roomsRouter = router({
  list: setupProcedure.input(ofProperty.extend({ retired: z.boolean().default(false) })).query(async ({ ctx, input }) =>
    (await listPropertyRooms({ db: ctx.db, tenant: ctx.tenant, propertyId: input.property_id, retired: input.retired })).map(presentRoom),
  ),
  /** One room or a range (from = to for one), all or none; each room's creation is on its trail. */
  createRange: setupProcedure.input(roomRangeCreateSchema).mutation(async ({ ctx, input }) => {
    const { rooms } = await createRoomRange({ db: ctx.db, tenant: ctx.tenant, input });
    const created = rooms.map(presentRoom);
    for (const after of created) await audit(ctx, { action: "room.created", objectType: "room", objectId: after.id, after });
    return created;
  }),
  update: setupProcedure.input(roomUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const before = presentRoom(await getRoom({ db: ctx.db, tenant: ctx.tenant, id }));
    const after = presentRoom(await updateRoom({ db: ctx.db, tenant: ctx.tenant, id, input }));
    await audit(ctx, { action: "room.updated", objectType: "room", objectId: id, before, after });
    return after;
  }),
  retire: setupProcedure.input(z.strictObject({ id })).mutation(async ({ ctx, input }) => {
    const before = presentRoom(await getRoom({ db: ctx.db, tenant: ctx.tenant, id: input.id }));
    const after = presentRoom(await retireRoom({ db: ctx.db, tenant: ctx.tenant, id: input.id }));
    await audit(ctx, { action: "room.retired", objectType: "room", objectId: input.id, before, after });
    return after;
  }),
});

const ratePlansRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const plans = await listRatePlans({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return plans.data.map(presentRatePlan).sort((a, b) => Number(b.active) - Number(a.active) || a.name.localeCompare(b.name));
  }),
  create: setupProcedure.input(ratePlanCreateSchema).mutation(async ({ ctx, input }) => {
    const after = presentRatePlan(await createRatePlan({ db: ctx.db, tenant: ctx.tenant, input }));
    await audit(ctx, { action: "rate_plan.created", objectType: "rate_plan", objectId: after.id, after });
    return after;
  }),
  update: setupProcedure.input(ratePlanUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const before = presentRatePlan(await getRatePlan({ db: ctx.db, tenant: ctx.tenant, id }));
    const after = presentRatePlan(await updateRatePlan({ db: ctx.db, tenant: ctx.tenant, id, input }));
    await audit(ctx, { action: "rate_plan.updated", objectType: "rate_plan", objectId: id, before, after });
    return after;
  }),
});

const taxesRouter = router({
  list: setupProcedure.input(ofProperty).query(async ({ ctx, input }) => {
    const found = await listTaxes({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything });
    return found.data.map(({ tax, currency }) => presentTax(tax, currency)).sort((a, b) => Number(b.active) - Number(a.active) || a.created_at.localeCompare(b.created_at));
  }),
  create: setupProcedure.input(taxCreateSchema).mutation(async ({ ctx, input }) => {
    const { tax, currency } = await createTax({ db: ctx.db, tenant: ctx.tenant, input });
    const after = presentTax(tax, currency);
    await audit(ctx, { action: "tax.created", objectType: "tax", objectId: after.id, after });
    return after;
  }),
  update: setupProcedure.input(taxUpdateSchema.extend({ id })).mutation(async ({ ctx, input: { id, ...input } }) => {
    const found = await getTax({ db: ctx.db, tenant: ctx.tenant, id });
    const before = presentTax(found.tax, found.currency);
    const { tax, currency } = await updateTax({ db: ctx.db, tenant: ctx.tenant, id, input });
    const after = presentTax(tax, currency);
    await audit(ctx, { action: "tax.updated", objectType: "tax", objectId: id, before, after });
    return after;
  }),
});

export const setupRouter = router({ property: propertyRouter, roomTypes: roomTypesRouter, rooms: roomsRouter, ratePlans: ratePlansRouter, taxes: taxesRouter });
