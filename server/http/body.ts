import type { Context } from "hono";
import { ApiError } from "@/server/errors";
import type { ApiEnv } from "./env";

export const maxBodyBytes = 1024 * 1024;
const jsonType = /^application\/json\s*(;|$)/i;

/**
 * Reads a JSON request body within the 1 MiB limit. An empty body reads as `{}` so actions
 * such as `/cancel` need no body; anything else must be declared and parse as JSON.
 */
export async function readJsonBody(c: Context<ApiEnv>): Promise<unknown> {
  const declared = Number(c.req.header("content-length") ?? "NaN");
  if (declared > maxBodyBytes) throw tooLarge();
  const raw = c.req.raw.body ? await readLimited(c.req.raw.body) : "";
  if (raw.trim() === "") return {};
  const contentType = c.req.header("content-type") ?? "";
  if (!jsonType.test(contentType)) {
    throw new ApiError("unsupported_content_type", `Request bodies must be sent as application/json, not '${contentType || "none"}'.`, {
      param: "Content-Type",
    });
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
}

const tooLarge = () => new ApiError("request_too_large", `Request bodies are limited to ${maxBodyBytes} bytes.`);

async function readLimited(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
