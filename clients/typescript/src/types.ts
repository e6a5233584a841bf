import type { components, operations } from "./generated/openapi.js";
import type { operationTable } from "./generated/operations.js";
import type { Page, PagePromise } from "./pagination.js";
import type { RequestOptions } from "./request.js";

/** Every operation id of the API. */
export type OperationId = keyof typeof operationTable;
type Op<Id extends OperationId> = operations[Id];

type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : never;
/** The JSON request body of an operation (its input shape: defaulted fields optional). */
export type BodyOf<Id extends OperationId> = Op<Id> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;
/** The query parameters of an operation. */
export type QueryOf<Id extends OperationId> = Op<Id>["parameters"] extends { query?: infer Q } ? NonNullable<Q> : never;
/** The success answer of an operation. */
export type ResultOf<Id extends OperationId> = Op<Id>["responses"] extends infer R
  ? R extends { 200: infer S } ? JsonOf<S> : R extends { 201: infer S } ? JsonOf<S> : R extends { 202: infer S } ? JsonOf<S> : never
  : never;
type ItemOf<Id extends OperationId> = ResultOf<Id> extends Page<infer T> ? T : ResultOf<Id> extends { data: (infer T)[] } ? T : never;

type Strings<T extends readonly unknown[]> = { -readonly [K in keyof T]: string };
type PathArgs<Id extends OperationId> = Strings<(typeof operationTable)[Id]["pathParams"]>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is "every field optional"
type Optional<T> = {} extends T ? true : false;
type InputArgs<Id extends OperationId> = [BodyOf<Id>] extends [never]
  ? [QueryOf<Id>] extends [never]
    ? []
    : Optional<QueryOf<Id>> extends true ? [params?: QueryOf<Id>] : [params: QueryOf<Id>]
  : Optional<BodyOf<Id>> extends true ? [body?: BodyOf<Id>] : [body: BodyOf<Id>];

/** A resource method: path parameters first, then the body or the query, then per-call options. */
export type MethodOf<Id extends OperationId> = (
  ...args: [...PathArgs<Id>, ...InputArgs<Id>, options?: RequestOptions]
) => (typeof operationTable)[Id]["list"] extends true ? PagePromise<ItemOf<Id>> : Promise<ResultOf<Id>>;

/** Named schemas of the API, e.g. `Schemas["Reservation"]`. */
export type Schemas = components["schemas"];
