// /api/auth/*: next-auth's staff sign-in, sign-out, CSRF and session endpoints
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/server/next-auth/auth-options";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = (req: NextRequest, context: Context) => NextAuth(req, context, authOptions());

export { handler as GET, handler as POST };
