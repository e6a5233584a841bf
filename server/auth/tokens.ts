import { createHash } from "node:crypto";
import { randomToken } from "@/server/ids";

/** Credentials carry 190 bits from a CSPRNG (32 base62 characters). */
export const newSecret = (prefix: string) => `${prefix}_${randomToken(32)}`;

/** Stored form of a credential: SHA-256 hex. High-entropy secrets need no slow hash. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
