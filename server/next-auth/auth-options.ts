import type { AuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDatabase } from "@/server/runtime";
import { getConfig, isProduction } from "@/server/config";
import { clientAddressHeader } from "@/server/listener";
import { signInStaff } from "@/server/staff/sign-in";
import { currentStaffUser } from "@/server/staff/users";
import { staffSessionSecret } from "@/server/staff/secret";

/** A staff session's lifetime: the dashboard never renews it, so staff sign in again after a shift. */
const sessionMaxAgeSeconds = 12 * 60 * 60;

let cached: AuthOptions | undefined;

/**
 * Staff cookies are `Secure` (and `__Secure-`/`__Host-` prefixed) in production, unless
 * NEXTAUTH_URL says the dashboard is served over plain http on this machine's loopback (tests,
 * a trial on a laptop), where browsers would otherwise drop them.
 */
function secureStaffCookies(config = getConfig()): boolean {
  if (!isProduction(config)) return config.NEXTAUTH_URL?.startsWith("https://") ?? false;
  if (!config.NEXTAUTH_URL?.startsWith("http://")) return true;
  const host = new URL(config.NEXTAUTH_URL).hostname;
  return !(host === "localhost" || host === "[::1]" || /^127\./.test(host));
}

/** next-auth's configuration: e-mail and password against `users`, sessions as signed JWTs. */
export function authOptions(): AuthOptions {
  cached ??= {
    secret: staffSessionSecret(),
    useSecureCookies: secureStaffCookies(),
    session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds },
    jwt: { maxAge: sessionMaxAgeSeconds },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      Credentials({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const { db } = await getDatabase();
          // Set by our own listener from the socket and TRUST_PROXY (server/listener.ts), never by the caller.
          const address = (req.headers?.[clientAddressHeader] as string | undefined) || undefined;
          // A refusal's message (wait, locked) reaches the sign-in form as the error.
          const user = await signInStaff({ db, email: credentials.email, password: credentials.password, address });
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
