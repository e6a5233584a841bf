import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { guests, type Address } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, type Ctx, type Tenant, listOwned } from "@/server/tenancy";
import { changesFrom } from "@/server/changes";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { preparedQuery } from "@/db/prepared";
import { presentGuest } from "./present";
import { cleanAddress } from "@/server/properties/schemas";
import type { BookingGuest, GuestCreate, GuestUpdate } from "./schemas";
import { guestSearch } from "./search";

export const emailKey = (email: string) => email.trim().toLowerCase();

function emailTaken(existingId: string): ApiError {
  return new ApiError("parameter_invalid", `A guest with this e-mail already exists: '${existingId}'.`, { param: "email" });
}

/** The guest with this e-mail in the tenant, if any. */
export async function findGuestByEmail(db: Executor, tenant: Tenant, email: string) {
  const [row] = await db
    .select()
    .from(guests)
    .where(ownedBy(guests, tenant, eq(guests.emailKey, emailKey(email))));
  return row;
}

/**
 * The guest without an e-mail who has this phone (by its digits) and last name (folded), if any:
 * how a returning walk-in without an e-mail is recognised (index `guests_no_email_key`).
 */
async function findGuestWithoutEmail(db: Executor, tenant: Tenant, input: BookingGuest) {
  const [row] = await db
    .select()
    .from(guests)
    .where(
      ownedBy(
        guests,
        tenant,
        isNull(guests.emailKey),
        sql`${guests.phoneKey} = regexp_replace(${input.phone ?? ""}, '[^0-9]', '', 'g')`,
        sql`${guests.phoneKey} <> ''`,
        sql`innkeep_fold(${guests.lastName}) = innkeep_fold(${input.last_name})`,
      ),
    );
  return row;
}

/**
 * Inserts a guest unless one with the e-mail exists; returns the row and whether it is new.
 * ON CONFLICT makes two concurrent bookings for one new e-mail share a single guest. A guest
 * without an e-mail is the one with the same phone and last name, if any, else a new one. A
 * new guest writes `guest.created`, so call it inside the transaction that needs the guest.
 */
/** A guest's address as stored: its non-empty lines, or null when it has none. */
const storedAddress = (address: GuestCreate["address"]): Address | null => {
  const lines = cleanAddress(address);
  return Object.keys(lines).length ? lines : null;
};

/** What a new guest puts on the record: its `guest.created` event and its trail entry. */
export function guestCreatedRecord(guest: typeof guests.$inferSelect) {
  const after = presentGuest(guest);
  return {
    events: [{ type: "guest.created" as const, propertyId: null, object: after }],
    entry: { action: "guest.created", objectType: "guest", objectId: guest.id, after },
  };
}

/**
 * Creates the guest unless the account has one of that e-mail (or, without one, of that phone
 * and name), and records a new one. `recordLater`: the caller writes `guestCreatedRecord` with
 * its own events and trail entry (a booking: one INSERT each instead of two).
 */
export async function insertGuestIfNew(db: Executor, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, input: BookingGuest, { recordLater = false } = {}) {
  const [created] = await preparedQuery(
    db,
    "guest_insert",
    {
      id: newId("guest"),
      account: tenant.accountId,
      livemode: tenant.livemode,
      firstName: input.first_name,
      lastName: input.last_name,
      email: input.email?.trim() ?? null,
      emailKey: input.email ? emailKey(input.email) : null,
      phone: input.phone ?? null,
      address: storedAddress(input.address),
    },
    (p) =>
      db
        .insert(guests)
        .values({
          id: p("id"),
          accountId: p("account"),
          livemode: p("livemode"),
          firstName: p("firstName"),
          lastName: p("lastName"),
          email: p("email"),
          emailKey: p("emailKey"),
          phone: p("phone"),
          address: p("address"),
        })
        .onConflictDoNothing()
        .returning(),
  );
  if (created) {
    if (!recordLater) {
      const { events, entry } = guestCreatedRecord(created);
      await recordChange(db, { tenant, actor }, events, entry);
    }
    return { guest: created, created: true };
  }
  const existing = input.email ? await findGuestByEmail(db, tenant, input.email) : await findGuestWithoutEmail(db, tenant, input);
  return { guest: existing!, created: false };
}

export async function createGuest({ db, tenant, actor, input }: ChangeCtx & { input: GuestCreate }) {
  return db.transaction(async (tx) => {
    const { guest, created } = await insertGuestIfNew(tx, { tenant, actor }, input);
    if (!created) throw emailTaken(guest.id);
    return guest;
  });
}

/**
 * Guests belong to the account, not to a property. For an OAuth install granted some properties,
 * a guest whose stays are all at other properties belongs to those: hidden from lists and 403
 * on direct access. A guest with no stay yet (just created, say) has no property to hide behind.
 */
function guestInGrant(tenant: Tenant): SQL | undefined {
  const granted = tenant.propertyIds;
  if (!granted) return undefined;
  const list = granted.length
    ? sql.join(
        granted.map((id) => sql`${id}`),
        sql`, `,
      )
    : sql`null`;
  return sql`(not exists (select 1 from reservations r where r.guest_id = ${guests.id}) or exists (select 1 from reservations r where r.guest_id = ${guests.id} and r.property_id in (${list})))`;
}

/** One guest by id, as `findOwned`, plus the OAuth property grant of `guestInGrant`. */
export async function findGuest(db: Executor, tenant: Tenant, id: string, options: { forUpdate?: boolean } = {}) {
  const guest = await findOwned(db, guests, tenant, id, "guest", options);
  const grant = guestInGrant(tenant);
  if (grant) {
    const [visible] = await db
      .select({ id: guests.id })
      .from(guests)
      .where(and(eq(guests.id, guest.id), grant));
    if (!visible) throw new ApiError("property_not_granted", `This app was not granted access to the properties guest '${id}' stayed at.`);
  }
  return guest;
}

export async function getGuest({ db, tenant, id }: Ctx & { id: string }) {
  return findGuest(db, tenant, id);
}

/** Guests newest first, by exact e-mail and/or a search of any part of name, e-mail or phone. */
export async function listGuests({ db, tenant, filters, page }: Ctx & { filters: { email?: string; search?: string }; page: PageRequest }) {
  return listOwned(
    db,
    guests,
    tenant,
    page,
    filters.email ? eq(guests.emailKey, emailKey(filters.email)) : undefined,
    filters.search ? guestSearch(filters.search) : undefined,
    guestInGrant(tenant),
  );
}

/** Changes a guest's names or contact, on the trail with the guest as locked and as written. */
export async function updateGuest({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: GuestUpdate }) {
  return db.transaction(async (tx) => {
    const guest = await findGuest(tx, tenant, id, { forUpdate: true });
    if (input.email && emailKey(input.email) !== guest.emailKey) {
      const other = await findGuestByEmail(tx, tenant, input.email);
      if (other) throw emailTaken(other.id);
    }
    const changes = changesFrom(guest, {
      firstName: input.first_name ?? guest.firstName,
      lastName: input.last_name ?? guest.lastName,
      email: input.email?.trim() ?? guest.email,
      emailKey: input.email ? emailKey(input.email) : guest.emailKey,
      phone: input.phone === undefined ? guest.phone : input.phone,
      address: input.address === undefined ? guest.address : storedAddress(input.address),
    });
    if (!changes) return guest;
    const [updated] = await tx
      .update(guests)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(guests.id, guest.id)))
      .returning();
    // In the change's transaction, like every change: webhooks and open guest pages follow it.
    const after = presentGuest(updated);
    await recordChange(tx, { tenant, actor }, [{ type: "guest.updated", propertyId: null, object: after }], {
      action: "guest.updated",
      objectType: "guest",
      objectId: guest.id,
      before: presentGuest(guest),
      after,
    });
    return updated;
  });
}
