// /v1/*: the REST API, the same Hono app the Node listener serves (this route answers when Next alone runs)
import { apiHandler } from "@/app/api-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export { apiHandler as GET, apiHandler as POST, apiHandler as PUT, apiHandler as PATCH, apiHandler as DELETE, apiHandler as OPTIONS, apiHandler as HEAD };
