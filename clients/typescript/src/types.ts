import type { components, operations } from "./generated/openapi.js";
import type { operationTable } from "./generated/operations.js";
import type { Page, PagePromise } from "./pagination.js";
import type { RequestOptions } from "./request.js";
import type { WebhookEvent } from "./webhooks.js";

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

type Answer<Id extends OperationId> = (typeof operationTable)[Id]["list"] extends true ? PagePromise<Refined<ItemOf<Id>>> : Promise<Refined<ResultOf<Id>>>;
type Full<Id extends OperationId> = (...args: [...PathArgs<Id>, ...InputArgs<Id>, options?: RequestOptions]) => Answer<Id>;
/**
 * A resource method: path parameters first, then the body or the query, then per-call options.
 * Where the body or query is optional, the options may come right after the path parameters.
 */
export type MethodOf<Id extends OperationId> = InputArgs<Id> extends []
  ? Full<Id>
  : [] extends InputArgs<Id>
    ? Full<Id> & ((...args: [...PathArgs<Id>, options: RequestOptions]) => Answer<Id>)
    : Full<Id>;

/** An object the document leaves open (an index signature): it says nothing of its members. */
type Untyped<T> = T extends { [key: string]: unknown } ? (string extends keyof T ? true : false) : false;
/**
 * Events as the client knows them. While the document declares an event's `data.object` as any
 * object, the client's own `WebhookEvent` (every type, each with its object) stands in for it;
 * once the document types the payloads, its own types are used unchanged.
 */
type Refined<T> = T extends { object: "event"; data: { object: infer O } }
  ? Untyped<O> extends true ? Exclude<WebhookEvent, { type: "ping" }> : T
  : T extends { object: "list"; data: (infer I)[] }
    ? I extends { object: "event"; data: { object: infer O } } ? (Untyped<O> extends true ? Omit<T, "data"> & { data: Exclude<WebhookEvent, { type: "ping" }>[] } : T) : T
    : T;

/** Named schemas of the API, e.g. `Schemas["Reservation"]`. */
export type Schemas = components["schemas"];

type ErrorStatus = `4${string}` | `5${string}`;
/** The error answers one operation declares (every 4xx and 5xx of its document entry). */
export type ErrorBodyOf<Id extends OperationId> = {
  [S in keyof Op<Id>["responses"]]: S extends number ? (`${S}` extends ErrorStatus ? JsonOf<Op<Id>["responses"][S]> : never) : never;
}[keyof Op<Id>["responses"]];
/** Every error body the API's document declares, over all its operations. */
export type ApiErrorBody = { [Id in OperationId]: ErrorBodyOf<Id> }[OperationId];
/** `error.code` as the document enumerates it (derived from the server's one code table). */
export type ApiErrorCode = ApiErrorBody["error"]["code"];
/** `error.type` as the document enumerates it. */
export type ApiErrorType = ApiErrorBody["error"]["type"];
