import { randomFillSync } from "node:crypto";

/** Every public identifier's prefix (contract §1). */
export const idPrefixes = {
  account: "acct",
  property: "prop",
  roomType: "rt",
  room: "room",
  ratePlan: "rp",
  reservation: "res",
  guest: "gst",
  folio: "fol",
  charge: "chg",
  payment: "pay",
  refund: "re",
  event: "evt",
  webhookEndpoint: "we",
  delivery: "del",
  attempt: "att",
  backfill: "bf",
  housekeepingAssignment: "hka",
  apiKey: "key",
  oauthClient: "app",
  oauthInstall: "inst",
  oauthCode: "grant",
  oauthToken: "oat",
  request: "req",
  user: "usr",
  hold: "hold",
  audit: "aud",
  nightAudit: "na",
  roomMove: "rmv",
  group: "grp",
  tax: "tax",
  invoice: "inv",
  creditNote: "cn",
  dataRepair: "rpr",
  paymentProcessor: "ppr",
  bookingSession: "bks",
} as const;

export type IdKind = keyof typeof idPrefixes;

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// CSPRNG bytes drawn a few kilobytes at a time (one system call per ~90 ids instead of one
// each, as crypto.randomUUID does); every byte is handed out once.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomBytes(n: number): Buffer {
  if (n > pool.length) return randomFillSync(Buffer.alloc(n));
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + n);
  used += n;
  return bytes;
}

/** Random base62 text from a CSPRNG; `length` 22 carries over 128 bits. */
export function randomToken(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    // 62 * 4 = 248: rejecting bytes ≥ 248 keeps every character equally likely.
    if (bytes[i] < 248) out += alphabet[bytes[i] % 62];
  }
  return out.length === length ? out : out + randomToken(length - out.length);
}

export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${randomToken(24)}`;
}
