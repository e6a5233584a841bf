import type { OperationId, MethodOf } from "./types.js";

/**
 * THE table of the client: resource → method → operation of the API. Every method of every
 * resource is built from it and from the generated operation table; nothing is written by hand.
 */
export const resourceTable = {
  properties: { list: "listProperties", create: "createProperty", retrieve: "getProperty", update: "updateProperty", retrieveBookingEngine: "getBookingEngine", updateBookingEngine: "updateBookingEngine" },
  roomTypes: { list: "listRoomTypes", create: "createRoomType", retrieve: "getRoomType", update: "updateRoomType" },
  rooms: { list: "listRooms", create: "createRoom", createRange: "createRoomRange", retrieve: "getRoom", update: "updateRoom", retire: "retireRoom" },
  ratePlans: { list: "listRatePlans", create: "createRatePlan", retrieve: "getRatePlan", update: "updateRatePlan", retrieveRates: "getRates", setRates: "setRates" },
  inventory: { retrieve: "getInventory", listHolds: "listHolds", createHold: "createHold", releaseHold: "releaseHold" },
  availability: { retrieve: "getAvailability" },
  reservations: {
    list: "listReservations",
    create: "createReservation",
    retrieve: "getReservation",
    update: "updateReservation",
    cancel: "cancelReservation",
    checkIn: "checkInReservation",
    checkOut: "checkOutReservation",
    changeDeparture: "changeReservationDeparture",
    moveRoom: "moveReservationRoom",
    listRoomMoves: "listReservationRoomMoves",
    grantLateCheckOut: "grantReservationLateCheckOut",
    guarantee: "guaranteeReservation",
    noShow: "noShowReservation",
    upgrade: "upgradeReservation",
    retrieveFolio: "getReservationFolio",
  },
  groups: { list: "listGroups", create: "createGroup", retrieve: "getGroup", cancel: "cancelGroup" },
  folios: { createCharge: "createFolioCharge", createInvoice: "createFolioInvoice" },
  invoices: { list: "listInvoices", retrieve: "getInvoice", retrievePdf: "getInvoicePdf", createCreditNote: "createCreditNote" },
  creditNotes: { list: "listCreditNotes", retrieve: "getCreditNote", retrievePdf: "getCreditNotePdf" },
  receivables: { list: "listReceivables" },
  taxes: { list: "listTaxes", create: "createTax", retrieve: "getTax", update: "updateTax" },
  guests: {
    list: "listGuests",
    create: "createGuest",
    retrieve: "getGuest",
    update: "updateGuest",
    retrievePreferences: "getGuestPreferences",
    replacePreferences: "replaceGuestPreferences",
    updatePreferences: "mergeGuestPreferences",
    erase: "eraseGuest",
    export: "exportGuest",
  },
  payments: { list: "listPayments", create: "createPayment", retrieve: "getPayment", capture: "capturePayment", void: "voidPayment", incrementAuthorization: "incrementAuthorization" },
  refunds: { list: "listRefunds", create: "createRefund", retrieve: "getRefund" },
  paymentProcessors: { list: "listPaymentProcessors", create: "connectPaymentProcessor", del: "deletePaymentProcessor" },
  housekeeping: {
    setStatus: "changeRoomStatus",
    listAssignments: "listAssignments",
    createAssignment: "createAssignment",
    updateAssignment: "updateAssignment",
    deleteAssignment: "deleteAssignment",
  },
  reports: { occupancy: "occupancyReport", revenue: "revenueReport", production: "productionReport" },
  nightAudits: { list: "listNightAudits", retrieve: "getNightAudit" },
  events: { list: "listEvents", retrieve: "getEvent" },
  webhookEndpoints: {
    list: "listWebhookEndpoints",
    create: "createWebhookEndpoint",
    retrieve: "getWebhookEndpoint",
    update: "updateWebhookEndpoint",
    del: "deleteWebhookEndpoint",
    rotateSecret: "rotateWebhookSecret",
    enable: "enableWebhookEndpoint",
    disable: "disableWebhookEndpoint",
    replay: "replayWebhookEvent",
    test: "testWebhookEndpoint",
    backfill: "createWebhookBackfill",
    retrieveBackfill: "getWebhookBackfill",
    listDeliveries: "listWebhookDeliveries",
  },
  deliveries: { retrieve: "getWebhookDelivery" },
  sandbox: { reset: "resetSandbox", advanceDay: "advanceSandboxDay" },
} as const satisfies Record<string, Record<string, OperationId>>;

type Table = typeof resourceTable;
/** The resources of a client, typed from the table and the generated operations. */
export type Resources = { readonly [R in keyof Table]: { readonly [M in keyof Table[R]]: Table[R][M] extends OperationId ? MethodOf<Table[R][M]> : never } };
