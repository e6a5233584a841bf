"""THE table of the client: resource -> method -> operation of the API.

Every resource method of `Innkeep` and `AsyncInnkeep` is generated from this table and from the
operations of the served OpenAPI document (`python scripts/generate.py` writes `_resources.py`);
nothing is written by hand per endpoint. Same resources and methods as `@innkeep/node`, in snake_case.
"""

RESOURCES: dict[str, dict[str, str]] = {
    "properties": {"list": "listProperties", "retrieve": "getProperty"},
    "room_types": {"list": "listRoomTypes", "create": "createRoomType", "retrieve": "getRoomType", "update": "updateRoomType"},
    "rooms": {"list": "listRooms", "create": "createRoom", "retrieve": "getRoom", "update": "updateRoom"},
    "rate_plans": {
        "list": "listRatePlans",
        "create": "createRatePlan",
        "retrieve": "getRatePlan",
        "update": "updateRatePlan",
        "retrieve_rates": "getRates",
        "set_rates": "setRates",
    },
    "inventory": {"retrieve": "getInventory", "list_holds": "listHolds", "create_hold": "createHold", "release_hold": "releaseHold"},
    "availability": {"retrieve": "getAvailability"},
    "reservations": {
        "list": "listReservations",
        "create": "createReservation",
        "retrieve": "getReservation",
        "update": "updateReservation",
        "cancel": "cancelReservation",
        "check_in": "checkInReservation",
        "check_out": "checkOutReservation",
        "no_show": "noShowReservation",
        "retrieve_folio": "getReservationFolio",
    },
    "folios": {"create_charge": "createFolioCharge"},
    "guests": {
        "list": "listGuests",
        "create": "createGuest",
        "retrieve": "getGuest",
        "update": "updateGuest",
        "retrieve_preferences": "getGuestPreferences",
        "replace_preferences": "replaceGuestPreferences",
        "update_preferences": "mergeGuestPreferences",
    },
    "payments": {"list": "listPayments", "create": "createPayment", "retrieve": "getPayment", "capture": "capturePayment", "void": "voidPayment"},
    "refunds": {"list": "listRefunds", "create": "createRefund", "retrieve": "getRefund"},
    "housekeeping": {
        "set_status": "changeRoomStatus",
        "list_assignments": "listAssignments",
        "create_assignment": "createAssignment",
        "update_assignment": "updateAssignment",
        "delete_assignment": "deleteAssignment",
    },
    "reports": {"occupancy": "occupancyReport", "revenue": "revenueReport", "production": "productionReport"},
    "events": {"list": "listEvents", "retrieve": "getEvent"},
    "webhook_endpoints": {
        "list": "listWebhookEndpoints",
        "create": "createWebhookEndpoint",
        "retrieve": "getWebhookEndpoint",
        "update": "updateWebhookEndpoint",
        "delete": "deleteWebhookEndpoint",
        "rotate_secret": "rotateWebhookSecret",
        "enable": "enableWebhookEndpoint",
        "disable": "disableWebhookEndpoint",
        "replay": "replayWebhookEvent",
        "backfill": "createWebhookBackfill",
        "retrieve_backfill": "getWebhookBackfill",
        "list_deliveries": "listWebhookDeliveries",
    },
    "deliveries": {"retrieve": "getWebhookDelivery"},
    "sandbox": {"reset": "resetSandbox"},
}
