import type { StaffRole } from "@/server/auth/users";

/** What a staff session carries (JWT strategy: these travel in the encrypted cookie). */
declare module "next-auth" {
  interface User {
    accountId: string;
    role: StaffRole;
  }
  interface Session {
    user: { id: string; accountId: string; role: StaffRole; name: string | null; email: string };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    accountId?: string;
    role?: StaffRole;
  }
}
