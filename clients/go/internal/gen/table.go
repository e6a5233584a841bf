package main

// resource is one resource of the client and its methods, each an operation of the API.
type resource struct {
	Field   string // the Client's field, e.g. Reservations
	Methods []method
}

type method struct{ Name, Operation string }

// table is THE table of the client: resource -> method -> operation, the TypeScript client's
// resources in Go's naming (a test holds it equal to clients/typescript/src/resources.ts).
var table = []resource{
	{"Properties", []method{{"List", "listProperties"}, {"Create", "createProperty"}, {"Retrieve", "getProperty"}, {"Update", "updateProperty"}, {"RetrieveBookingEngine", "getBookingEngine"}, {"UpdateBookingEngine", "updateBookingEngine"}}},
	{"RoomTypes", []method{{"List", "listRoomTypes"}, {"Create", "createRoomType"}, {"Retrieve", "getRoomType"}, {"Update", "updateRoomType"}}},
	{"Rooms", []method{{"List", "listRooms"}, {"Create", "createRoom"}, {"CreateRange", "createRoomRange"}, {"Retrieve", "getRoom"}, {"Update", "updateRoom"}, {"Retire", "retireRoom"}}},
	{"RatePlans", []method{{"List", "listRatePlans"}, {"Create", "createRatePlan"}, {"Retrieve", "getRatePlan"}, {"Update", "updateRatePlan"}, {"RetrieveRates", "getRates"}, {"SetRates", "setRates"}}},
	{"Inventory", []method{{"Retrieve", "getInventory"}, {"ListHolds", "listHolds"}, {"CreateHold", "createHold"}, {"ReleaseHold", "releaseHold"}}},
	{"Availability", []method{{"Retrieve", "getAvailability"}}},
	{"Reservations", []method{{"List", "listReservations"}, {"Create", "createReservation"}, {"Retrieve", "getReservation"}, {"Update", "updateReservation"}, {"Cancel", "cancelReservation"}, {"CheckIn", "checkInReservation"}, {"CheckOut", "checkOutReservation"}, {"ChangeDeparture", "changeReservationDeparture"}, {"MoveRoom", "moveReservationRoom"}, {"ListRoomMoves", "listReservationRoomMoves"}, {"GrantLateCheckOut", "grantReservationLateCheckOut"}, {"NoShow", "noShowReservation"}, {"Guarantee", "guaranteeReservation"}, {"Upgrade", "upgradeReservation"}, {"RetrieveFolio", "getReservationFolio"}}},
	{"Groups", []method{{"List", "listGroups"}, {"Create", "createGroup"}, {"Retrieve", "getGroup"}, {"Cancel", "cancelGroup"}}},
	{"Folios", []method{{"CreateCharge", "createFolioCharge"}, {"CreateInvoice", "createFolioInvoice"}}},
	{"Invoices", []method{{"List", "listInvoices"}, {"Retrieve", "getInvoice"}, {"RetrievePdf", "getInvoicePdf"}, {"CreateCreditNote", "createCreditNote"}}},
	{"CreditNotes", []method{{"List", "listCreditNotes"}, {"Retrieve", "getCreditNote"}, {"RetrievePdf", "getCreditNotePdf"}}},
	{"Receivables", []method{{"List", "listReceivables"}}},
	{"Taxes", []method{{"List", "listTaxes"}, {"Create", "createTax"}, {"Retrieve", "getTax"}, {"Update", "updateTax"}}},
	{"Guests", []method{{"List", "listGuests"}, {"Create", "createGuest"}, {"Retrieve", "getGuest"}, {"Update", "updateGuest"}, {"RetrievePreferences", "getGuestPreferences"}, {"ReplacePreferences", "replaceGuestPreferences"}, {"UpdatePreferences", "mergeGuestPreferences"}, {"Erase", "eraseGuest"}, {"Export", "exportGuest"}}},
	{"Payments", []method{{"List", "listPayments"}, {"Create", "createPayment"}, {"Retrieve", "getPayment"}, {"Capture", "capturePayment"}, {"Void", "voidPayment"}, {"IncrementAuthorization", "incrementAuthorization"}}},
	{"Refunds", []method{{"List", "listRefunds"}, {"Create", "createRefund"}, {"Retrieve", "getRefund"}}},
	{"PaymentProcessors", []method{{"List", "listPaymentProcessors"}, {"Create", "connectPaymentProcessor"}, {"Delete", "deletePaymentProcessor"}}},
	{"Housekeeping", []method{{"SetStatus", "changeRoomStatus"}, {"ListAssignments", "listAssignments"}, {"CreateAssignment", "createAssignment"}, {"UpdateAssignment", "updateAssignment"}, {"DeleteAssignment", "deleteAssignment"}}},
	{"Reports", []method{{"Occupancy", "occupancyReport"}, {"Revenue", "revenueReport"}, {"Production", "productionReport"}}},
	{"NightAudits", []method{{"List", "listNightAudits"}, {"Retrieve", "getNightAudit"}}},
	{"Events", []method{{"List", "listEvents"}, {"Retrieve", "getEvent"}}},
	{"WebhookEndpoints", []method{{"List", "listWebhookEndpoints"}, {"Create", "createWebhookEndpoint"}, {"Retrieve", "getWebhookEndpoint"}, {"Update", "updateWebhookEndpoint"}, {"Delete", "deleteWebhookEndpoint"}, {"RotateSecret", "rotateWebhookSecret"}, {"Enable", "enableWebhookEndpoint"}, {"Disable", "disableWebhookEndpoint"}, {"Replay", "replayWebhookEvent"}, {"Test", "testWebhookEndpoint"}, {"Backfill", "createWebhookBackfill"}, {"RetrieveBackfill", "getWebhookBackfill"}, {"ListDeliveries", "listWebhookDeliveries"}}},
	{"Deliveries", []method{{"Retrieve", "getWebhookDelivery"}}},
	{"Sandbox", []method{{"Reset", "resetSandbox"}, {"AdvanceDay", "advanceSandboxDay"}}},
}
