// /book-api/*: the booking engine's public endpoints, the same Hono app the Node listener serves (this route answers when Next alone runs)
import { apiHandler } from "@/app/api-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export { apiHandler as GET, apiHandler as POST };
