import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { Db } from "@/db/client";
import type { ErrorCode } from "@/server/errors";
import type { Scope } from "@/server/auth/scopes";
import type { Principal } from "@/server/auth/authenticate-token";
import type { AuditActor } from "@/server/audit/audit";
import type { Tenant } from "@/server/tenancy";
import type { Page, PageRequest } from "@/server/pagination";
import type { ApiEnv } from "./context";
import type { listEnvelope } from "./pagination";

export type AnyObject = z.ZodObject<z.ZodRawShape>;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type Method = "get" | "post" | "put" | "patch" | "delete";

/** What a handler gets besides its parsed input: the tenant, who is asking, and who the audit trail says made a change. */
export type RequestCtx = { db: Db; tenant: Tenant; principal: Principal; actor: AuditActor; requestId: string; version: string };

export type ListTools = {
  page: PageRequest;
  /** Wraps a page from a service in the list envelope, with cursors bound to these filters. */
  envelope<T, R>(page: Page<T>, present: (row: T) => R): ReturnType<typeof listEnvelope<T, R>>;
};

export type Operation<P, Q, B> = {
  method: Method;
  /** OpenAPI-style path under /v1, e.g. `/guests/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The scope required; null for any valid credential. */
  scope: Scope | null;
  /** Answered before authentication, to anyone (`GET /openapi.json`): no credential, no environment, no scope. */
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** Cursor list: adds `limit` and `cursor`, refuses `offset`. */
  list?: boolean;
  /** A list that still serves deprecated offset pagination (GET /payments, v1.7). */
  allowOffset?: boolean;
  /** Its card errors record no payment (a card put on file), so they carry no `payment_id`. */
  declinesRecordNoPayment?: boolean;
  response: z.ZodType;
  /** Also answers `text/csv` (reports' `format=csv`): what its columns are, for the document. */
  csv?: string;
  /** Answers `application/pdf` (an invoice) instead of JSON; the handler returns the Response. */
  pdf?: boolean;
  status?: 200 | 201 | 202;
  /**
   * Errors of its own, beyond those its definition and the chain imply (authentication, scope,
   * environment, body, idempotency, path, query, list and lookups: see openapi-operation.ts),
   * such as a state transition or a card decline. The document lists exactly these and those.
   */
  errors?: ErrorCode[];
  handler(args: {
    ctx: RequestCtx;
    params: Out<P>;
    query: Out<Q>;
    body: Out<B>;
    list: ListTools;
    c: Context<ApiEnv>;
  }): Promise<unknown>;
};

/** Declares an operation; the generic parameters flow from the schemas into the handler. */
export function defineOperation<P extends AnyObject | undefined = undefined, Q extends AnyObject | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  op: Operation<P, Q, B>,
): Operation<P, Q, B> {
  return op;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<any, any, any>;
