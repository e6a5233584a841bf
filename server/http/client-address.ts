import type { Context } from "hono";
import { addressOf } from "@/server/proxy-trust";
import type { ApiEnv } from "./context";

/** `addressOf` for a `/v1` request, with the app's configured trust. */
export const clientAddress = (c: Context<ApiEnv>): string | undefined => addressOf(c.env?.incoming, c.get("deps").trustProxy);
