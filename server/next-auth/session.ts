import { getServerSession, type Session } from "next-auth";
import { authOptions } from "./auth-options";

export type StaffSession = Session;
export type StaffUser = Session["user"];

/** The signed-in staff member's session, or null; for server components and route handlers. */
export async function getStaffSession(): Promise<StaffSession | null> {
  const session = await getServerSession(authOptions());
  return session?.user?.accountId ? session : null;
}
