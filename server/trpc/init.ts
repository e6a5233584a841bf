import { initTRPC, TRPCError } from "@trpc/server";
import type { Db } from "@/db/client";
import { ApiError } from "@/server/errors";
import type { StaffRole } from "@/server/auth/users";
import type { RateCounter } from "@/server/http/rate-limit";
import type { StaffSession } from "@/server/next-auth/session";
import type { Tenant } from "@/server/tenancy";
import type { AuditActor } from "@/server/audit/audit";
import { apiErrorData, apiErrorOf, toTRPCError, type ApiErrorData } from "./errors";

/**
 * What every procedure receives: the database, who is signed in, and the data set on screen;
 * `limiter` is the REST API's rate limiter (default: the process's own; tests pass theirs).
 */
export type TRPCContext = { db: Db; session: StaffSession | null; livemode: boolean; limiter?: RateCounter };

const t = initTRPC.context<TRPCContext>().create({
  errorFormatter({ shape, error }) {
    const api = error.cause instanceof ApiError ? error.cause : undefined;
    const opaque = !api && error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      message: opaque ? "An unexpected error occurred. It has been logged." : shape.message,
      data: {
        ...shape.data,
        httpStatus: api?.status ?? shape.data.httpStatus,
        stack: undefined,
        apiError: (api ? apiErrorData(api) : null) as ApiErrorData | null,
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every failure leaves as a TRPCError with the status of the contract's code table and the
 * ApiError as its cause: errors thrown by services, and input errors worded as `/v1` words them.
 */
const base = t.procedure.use(async ({ next, getRawInput }) => {
  const result = await next();
  if (result.ok) return result;
  const api = apiErrorOf(result.error, await getRawInput().catch(() => undefined));
  if (api) throw toTRPCError(api);
  return result;
});

/** A procedure for a signed-in staff member; its context carries the user and the tenant. */
export const staffProcedure = base.use(({ ctx, next }) => {
  const user = ctx.session?.user;
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  const tenant: Tenant = { accountId: user.accountId, livemode: ctx.livemode, propertyIds: null };
  // Who the audit trail names for every change made in this call (services write it).
  const actor: AuditActor = { type: "staff", id: user.id, email: user.email };
  return next({ ctx: { user, tenant, actor } });
});

/** Role check as middleware: `staffProcedure.use(roles("owner", "manager"))`. */
export const roles = (...allowed: readonly StaffRole[]) =>
  t.middleware(({ ctx, next }) => {
    const role = ctx.session?.user.role;
    if (!role || !allowed.includes(role)) {
      throw new TRPCError({ code: "FORBIDDEN", message: "Your role does not give access to this." });
    }
    return next();
  });
