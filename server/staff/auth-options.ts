import type { AuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { verifyUserPassword } from "@/server/auth/users";
import { getDatabase } from "@/server/runtime";
import { currentStaffUser } from "./users";
import { staffSessionSecret } from "./secret";

/** A staff session's lifetime: the dashboard never renews it, so staff sign in again after a shift. */
export const sessionMaxAgeSeconds = 12 * 60 * 60;

let cached: AuthOptions | undefined;

/** next-auth's configuration: e-mail and password against `users`, sessions as signed JWTs. */
export function authOptions(): AuthOptions {
  cached ??= {
    secret: staffSessionSecret(),
    session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds },
    jwt: { maxAge: sessionMaxAgeSeconds },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      Credentials({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const { db } = await getDatabase();
          const user = await verifyUserPassword({ db, email: credentials.email, password: credentials.password });
          return user && { id: user.id, email: user.email, name: user.name, accountId: user.accountId, role: user.role };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) return Object.assign(token, { sub: user.id, accountId: user.accountId, role: user.role });
        // Re-read on every request: a removed user is signed out and a new role applies at once,
        // rather than when the 12-hour token runs out.
        const { db } = await getDatabase();
        const current = token.sub ? await currentStaffUser({ db, id: token.sub }) : null;
        if (!current) return { ...token, accountId: undefined, role: undefined };
        return Object.assign(token, { accountId: current.accountId, role: current.role });
      },
      session({ session, token }) {
        session.user = { id: token.sub!, accountId: token.accountId!, role: token.role!, name: token.name ?? null, email: token.email! };
        return session;
      },
    },
  };
  return cached;
}
