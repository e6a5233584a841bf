import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { ApiError } from "@/server/errors";
import type { ApiEnv } from "./context";

export const maxBodyBytes = 1024 * 1024;
/** How deep objects and arrays may nest in a body (no operation needs more than a handful). */
const maxBodyDepth = 32;
/** Strict UTF-8: an invalid byte, an overlong form or an encoded surrogate is an error, never U+FFFD. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const jsonType = /^application\/json\s*(;|$)/i;

/** JSON's own whitespace (RFC 8259 §2); `String.prototype.trim` strips far more (VT, FF, NBSP, BOM…). */
const jsonWhitespace = /^[ \t\r\n]*$/;

/**
 * Reads a JSON request body within the 1 MiB limit. A declared content type other than JSON is
 * 415 whatever the body. A body of nothing but JSON whitespace reads as `{}` only where the body is
 * optional (actions such as `/cancel`); where it is required (creates, PUT, PATCH) it is
 * `parameter_missing`, so a blank request can never replace stored data with defaults.
 */
export async function readJsonBody(c: Context<ApiEnv>, { required }: { required: boolean }): Promise<unknown> {
  const declared = Number(c.req.header("content-length") ?? "NaN");
  if (declared > maxBodyBytes) throw tooLarge();
  // Behind the Node listener the body is read straight off the socket: asking Hono for
  // `req.raw.body` first builds a full WHATWG Request and stream, a tenth of a POST's CPU.
  const incoming = c.env?.incoming;
  const raw = incoming ? await readIncoming(incoming) : c.req.raw.body ? await readLimited(c.req.raw.body) : "";
  const contentType = c.req.header("content-type");
  const blank = jsonWhitespace.test(raw);
  if (contentType !== undefined || !blank) {
    if (!jsonType.test(contentType ?? "")) {
      throw new ApiError("unsupported_content_type", `Request bodies must be sent as application/json, not '${contentType || "none"}'.`, {
        param: "Content-Type",
      });
    }
  }
  if (blank) {
    if (required) throw new ApiError("parameter_missing", "This request needs a JSON object as its body; the body was empty.");
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  checkShape(parsed);
  return parsed;
}

/**
 * Walks the parsed body without recursion: refuses nesting deeper than `maxBodyDepth` (400
 * `invalid_json`, before anything else reads the body recursively) and a `__proto__` key, which
 * JSON.parse keeps as an own property but schema parsing would silently drop (422, naming it).
 */
function checkShape(body: unknown): void {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 0, path: "" }];
  while (stack.length) {
    const { value, depth, path } = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth >= maxBodyDepth) {
      throw new ApiError("invalid_json", `The request body nests objects and arrays deeper than ${maxBodyDepth} levels.`);
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, depth: depth + 1, path: `${path}[${index}]` }));
      continue;
    }
    for (const key of Object.keys(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key === "__proto__") throw new ApiError("parameter_invalid", `The key '__proto__' is not allowed (at '${at}').`, { param: at });
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1, path: at });
    }
  }
}

function decode(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid UTF-8.");
  }
}

/**
 * The client closed its connection before the body ended: nobody is there to answer. Not a
 * server fault: `renderError` logs it at debug and `observe` counts it as 499, never as a 5xx.
 */
export class ClientAborted extends Error {
  constructor(cause?: unknown) {
    super("The client closed the request before its body ended.", { cause });
    this.name = "ClientAborted";
  }
}

const tooLarge = () => new ApiError("request_too_large", `Request bodies are limited to ${maxBodyBytes} bytes.`);

function readIncoming(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: Error) => {
      incoming.off("data", onData).off("end", onEnd).off("error", onAborted).off("aborted", onAborted);
      if (error) reject(error);
      else {
        try {
          resolve(decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
        } catch (invalid) {
          reject(invalid);
        }
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBodyBytes) {
        // Stop reading; the answer (413) is written and the rest of the body discarded by Node.
        incoming.pause();
        done(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done();
    // Node reports a connection closed mid-body as `aborted`, then as an `error` (ECONNRESET "aborted").
    const onAborted = (error?: Error) => done(new ClientAborted(error));
    incoming.on("data", onData).on("end", onEnd).on("error", onAborted).on("aborted", onAborted);
  });
}

async function readLimited(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((error: unknown) => {
      throw new ClientAborted(error);
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBodyBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return decode(Buffer.concat(chunks));
}
