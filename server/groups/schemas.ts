import { z } from "@hono/zod-openapi";
import { groupBillings } from "@/db/schema";
import { reservationCreateSchema, reservationSchema } from "@/server/reservations/schemas";
import { stayPriceSchema } from "@/server/folios/folios";
import { date, idOf, money, timestamp } from "@/server/schemas";

const booking = reservationCreateSchema.shape;

/** One room of a group: its type, plan and party, and (optionally) a guest of its own. */
const groupRoomSchema = z
  .strictObject({
    room_type_id: booking.room_type_id,
    rate_plan_id: booking.rate_plan_id,
    adults: booking.adults,
    children: booking.children,
    guest: booking.guest.optional().openapi({ description: "The guest of this room; without it, the group's `guest`." }),
  })
  .openapi("GroupRoom");

export const groupCreateSchema = z
  .strictObject({
    property_id: booking.property_id,
    name: z.string().trim().min(1).max(200).optional().openapi({ description: "What the desk calls the group; without it, the guest's last name and \"group\"." }),
    billing: z.enum(groupBillings).default("master").openapi({
      description: "`master`: every room's charges (and payments) go to one master folio, settled when the last room leaves. `individual`: each room has its own folio.",
    }),
    guest: booking.guest.openapi({ description: "The booker: the guest of every room that names none of its own." }),
    check_in: date,
    check_out: date,
    rooms: z.array(groupRoomSchema).min(2).max(20).openapi({ description: "2 to 20 rooms, each possibly of another room type; booked all together or not at all." }),
    source: booking.source,
    channel: booking.channel,
    notes: booking.notes,
  })
  .openapi("GroupCreate", {
    // Two rooms, the second with a guest of its own; the first is the booker's.
    example: {
      property_id: "prop_1a2B3c4D5e6F7g8H9i0J1k2L",
      billing: "individual",
      guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      check_in: "2026-12-24",
      check_out: "2026-12-27",
      rooms: [
        { room_type_id: "rt_1a2B3c4D5e6F7g8H9i0J1k2L", rate_plan_id: "rp_1a2B3c4D5e6F7g8H9i0J1k2L", adults: 2, children: 0 },
        { room_type_id: "rt_1a2B3c4D5e6F7g8H9i0J1k2L", rate_plan_id: "rp_1a2B3c4D5e6F7g8H9i0J1k2L", adults: 1, children: 0, guest: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" } },
      ],
    },
  });

export const groupSchema = z
  .object({
    id: idOf("grp"),
    object: z.literal("group"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    name: z.string(),
    billing: z.enum(groupBillings),
    master_folio_id: idOf("fol").nullable().openapi({ description: "The folio every room bills to (`billing: master`); null with individual billing." }),
    check_in: date.openapi({ description: "The earliest arrival of its rooms." }),
    check_out: date.openapi({ description: "The latest departure of its rooms." }),
    total: money.openapi({ description: "The sum of the nightly rates of its rooms not cancelled, as loaded (inside or before taxes, as the property's taxes say); `price` states what the folios charge for them." }),
    price: stayPriceSchema.openapi({
      description:
        "What its rooms not cancelled come to as their folios charge them: net, tax, gross and each tax's share, the sum of their reservations' `price` (so, with individual billing, of their folios' room charges; with master billing, of the master folio's).",
    }),
    reservations: z.array(reservationSchema).openapi({ description: "Its rooms, in the order they were booked; each is a reservation of its own (check in, cancel, move)." }),
    notes: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Group");

export const groupListQuery = z.strictObject({
  property_id: z.string().optional(),
});

export const groupCancelSchema = z.strictObject({ reason: z.string().trim().min(1).max(500).optional() }).openapi("GroupCancel");

export type GroupCreate = z.output<typeof groupCreateSchema>;
