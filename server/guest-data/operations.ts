import { defineOperation } from "@/server/http/operation";
import { presentGuest } from "@/server/guests/present";
import { guestEraseSchema, guestSchema } from "@/server/guests/schemas";
import { idParam } from "@/server/schemas";
import { eraseGuest } from "./erase-guest";
import { exportGuest, guestExportSchema } from "./export-guest";

const tag = "Guests";
const params = idParam("gst");

/** What the account holds about one guest, exported or erased on the guest's request (under Guests in the document). */
export const guestDataOperations = [
  // POST /v1/guests/{id}/erase: erase a guest's personal data on request; financial records stay
  defineOperation({
    method: "post", path: "/guests/{id}/erase", operationId: "eraseGuest", summary: "Erase a guest", tag, scope: "reservations:write",
    description:
      "Anonymises the guest everywhere the account stores them: names become \"Erased guest\", e-mail and phone are removed, preferences deleted, reservations' notes, cancellation reasons and metadata cleared, and the same done to stored event payloads (so webhook replays), the audit trail, stored idempotent responses and the guest's e-mails. Folios, charges, payments and refunds stay, referring to the anonymised guest. Writes `guest.erased`, whose payload holds no personal data. A guest with a stay in house is refused (409 `invalid_state_transition`). Erasing an erased guest answers it again and changes nothing.",
    params, body: guestEraseSchema, response: guestSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params }) => presentGuest((await eraseGuest({ ...ctx, id: params.id })).guest),
  }),
  // GET /v1/guests/{id}/export: everything held about a guest, as one JSON document
  defineOperation({
    method: "get", path: "/guests/{id}/export", operationId: "exportGuest", summary: "Export a guest's data", tag, scope: "reservations:read",
    params, response: guestExportSchema,
    handler: async ({ ctx, params }) => exportGuest({ ...ctx, id: params.id }),
  }),
];
