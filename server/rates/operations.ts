import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { getRateCalendar, setRates } from "./daily-rates";
import { presentRatePlan } from "./present";
import { createRatePlan, getRatePlan, listRatePlans, updateRatePlan } from "./rate-plans";
import {
  rateCalendarQuery,
  rateCalendarSchema,
  ratePlanCreateSchema,
  ratePlanListQuery,
  ratePlanSchema,
  ratePlanUpdateSchema,
  rateRangeSetSchema,
} from "./schemas";

const tag = "Rates";
const params = idParam("rp");

export const rateOperations = [
  // GET /v1/rate_plans: rate plans, optionally of one property
  defineOperation({
    method: "get",
    path: "/rate_plans",
    operationId: "listRatePlans",
    summary: "List rate plans",
    tag,
    scope: "rooms:read",
    query: ratePlanListQuery,
    list: true,
    response: listSchema(ratePlanSchema, "RatePlanList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listRatePlans({ ...ctx, filters: query, page: list.page }), presentRatePlan),
  }),
  // POST /v1/rate_plans: create a rate plan for some room types of a property
  defineOperation({
    method: "post",
    path: "/rate_plans",
    operationId: "createRatePlan",
    summary: "Create a rate plan",
    tag,
    scope: "rooms:write",
    body: ratePlanCreateSchema,
    response: ratePlanSchema,
    status: 201,
    handler: async ({ ctx, body }) => presentRatePlan(await createRatePlan({ ...ctx, input: body })),
  }),
  // GET /v1/rate_plans/{id}: retrieve a rate plan
  defineOperation({
    method: "get",
    path: "/rate_plans/{id}",
    operationId: "getRatePlan",
    summary: "Retrieve a rate plan",
    tag,
    scope: "rooms:read",
    params,
    response: ratePlanSchema,
    handler: async ({ ctx, params }) => presentRatePlan(await getRatePlan({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/rate_plans/{id}: update a rate plan (emits rate.updated)
  defineOperation({
    method: "patch",
    path: "/rate_plans/{id}",
    operationId: "updateRatePlan",
    summary: "Update a rate plan",
    tag,
    scope: "rooms:write",
    params,
    body: ratePlanUpdateSchema,
    response: ratePlanSchema,
    handler: async ({ ctx, params, body }) => presentRatePlan(await updateRatePlan({ ...ctx, id: params.id, input: body })),
  }),
  // GET /v1/rate_plans/{id}/rates: nightly prices and restrictions over a range
  defineOperation({
    method: "get",
    path: "/rate_plans/{id}/rates",
    operationId: "getRates",
    summary: "Retrieve daily rates",
    tag,
    scope: "rooms:read",
    params,
    query: rateCalendarQuery,
    response: rateCalendarSchema,
    handler: async ({ ctx, params, query }) => getRateCalendar({ ...ctx, ratePlanId: params.id, query }),
  }),
  // POST /v1/rate_plans/{id}/rates: set price and restrictions over a range (max 730 days)
  defineOperation({
    method: "post",
    path: "/rate_plans/{id}/rates",
    operationId: "setRates",
    summary: "Set daily rates over a range",
    tag,
    scope: "rooms:write",
    params,
    body: rateRangeSetSchema,
    response: rateCalendarSchema,
    handler: async ({ ctx, params, body }) => setRates({ ...ctx, ratePlanId: params.id, input: body }),
  }),
];
