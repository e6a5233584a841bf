// /api/trpc/*: the dashboard's tRPC endpoint
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { logger } from "@/server/observability/logger";
import { getDatabase } from "@/server/runtime";
import { getStaffSession } from "@/server/next-auth/session";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/routers/_app";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function handler(req: Request) {
  const [{ db }, session] = await Promise.all([getDatabase(), getStaffSession()]);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ db, session, headers: req.headers }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") logger.error({ err: error.cause ?? error, path, user: session?.user.id }, "trpc call failed");
    },
  });
}

export { handler as GET, handler as POST };
