import type { z } from "zod";
import { ApiError, type ErrorCode, type ParamLocation } from "@/server/errors";
import { plainWords } from "./plain-words";

const describe: Record<ParamLocation, string> = { body: "parameter", query: "query parameter", header: "header", path: "path parameter" };

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** One zod issue as the contract's fault: code, dotted `param` and message. */
function fault(issue: z.core.$ZodIssue, input: unknown, location: ParamLocation): { code: ErrorCode; param?: string; message: string }[] {
  const base = issue.path.map(String);
  const inBody = location === "body";
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const param = [...base, key].join(".");
      return { code: inBody ? "parameter_unknown" : "parameter_invalid", param, message: `Received unknown ${describe[location]}: '${param}'.` };
    });
  }
  const param = base.join(".") || undefined;
  const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
  if (missing) return [{ code: inBody ? "parameter_missing" : "parameter_invalid", param, message: `Missing required ${describe[location]}: '${param}'.` }];
  const where = param ? `Invalid ${describe[location]} '${param}': ` : "Invalid request body: ";
  const message = /[.!?]$/.test(issue.message) ? issue.message : `${issue.message}.`;
  return [{ code: "parameter_invalid", param, message: `${where}${message}` }];
}

/**
 * Turns zod's issues into the contract's error: `parameter_missing`, `parameter_unknown` or
 * `parameter_invalid`, with `param` as the dotted path. The first fault is the error itself;
 * when there are several, `errors` lists every one (the first included), each with its own
 * code, `param` and message, so one answer names every field to fix. Query and header faults
 * are 400 `parameter_invalid` whatever the cause (contract §2).
 */
export function toApiError(error: z.ZodError, input: unknown, location: ParamLocation): ApiError {
  const faults = error.issues.flatMap((issue) => fault(issue, input, location));
  const [first] = faults;
  const more = faults.length - 1;
  const message = more ? `${first.message} ${more === 1 ? "One more parameter is" : `${more} more parameters are`} at fault: see \`errors\`.` : first.message;
  return new ApiError(first.code, message, {
    param: first.param,
    location,
    ...(more ? { extra: { errors: faults.map((f) => ({ code: f.code, ...(f.param !== undefined ? { param: f.param } : {}), message: f.message })) } } : {}),
  });
}

/** U+0000, or half of a surrogate pair: PostgreSQL text and jsonb cannot hold them (a 500 there). */
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isStorableText = (text: string) => !unstorable.test(text);

/** The path of the first key or string value in `value` that the database could not store. */
function unstorableAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : path;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key];
    const found = unstorableAt(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, location: ParamLocation): z.output<S> {
  const result = schema.safeParse(input, { error: plainWords });
  if (!result.success) throw toApiError(result.error, input, location);
  const bad = unstorableAt(result.data);
  if (bad) {
    const param = bad.join(".") || undefined;
    throw new ApiError("parameter_invalid", `Invalid ${describe[location]} '${param}': text may not contain NUL characters or unpaired surrogates.`, {
      param,
      location,
    });
  }
  return result.data;
}
