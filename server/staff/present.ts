import { isoTime } from "@/lib/dates";
import type { users } from "@/db/schema";

/** A staff member as the settings page lists them; never the password hash. */
export const presentStaffUser = (u: typeof users.$inferSelect) => ({
  id: u.id,
  object: "user" as const,
  email: u.email,
  name: u.name,
  role: u.role,
  created_at: isoTime(u.createdAt),
});
