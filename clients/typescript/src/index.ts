/**
 * @innkeep/node: the Innkeep API client. Typed from the API's own OpenAPI document; lists
 * auto-paginate; retries never double-book (every POST keeps one Idempotency-Key); errors
 * are typed by `error.type`; webhook deliveries are verified with Node crypto or WebCrypto.
 */
import { Innkeep } from "./client.js";

export { Innkeep };
export default Innkeep;
export type { InnkeepOptions } from "./client.js";
export * from "./errors.js";
export { PagePromise, type Page } from "./pagination.js";
export type { RequestOptions, ResponseInfo } from "./request.js";
export { resourceTable, type Resources } from "./resources.js";
export type { BodyOf, QueryOf, ResultOf, OperationId, Schemas, ApiErrorBody, ApiErrorCode, ApiErrorType, ErrorBodyOf } from "./types.js";
export { SignatureVerificationError, webhooks, type WebhookEvent, type WebhookEventType, type InventoryRange, type PingObject } from "./webhooks.js";
export type { paths, operations, components } from "./generated/openapi.js";
