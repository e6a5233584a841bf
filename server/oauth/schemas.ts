import { z } from "zod";
import { scopeSchema } from "@/server/auth/scopes";

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Why a redirect URI cannot be registered, or null: it must be absolute, use https (plain http
 * only on loopback, for development and native apps), and carry no fragment (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash || uri.includes("#")) return "may not carry a fragment (#…)";
  if (url.username || url.password) return "may not carry credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && loopbackHosts.has(url.hostname)) return null;
  return "must use https (http is allowed only for localhost and 127.0.0.1)";
}

const redirectUriSchema = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .superRefine((uri, ctx) => {
    const problem = redirectUriProblem(uri);
    if (problem) ctx.addIssue({ code: "custom", message: `Redirect URI ${problem}.` });
  });

const name = z.string().trim().min(1).max(100);
const redirectUris = z.array(redirectUriSchema).min(1).max(10);
const appScopes = z.array(scopeSchema).min(1).max(8);

export const oauthAppCreateSchema = z.strictObject({
  name,
  redirect_uris: redirectUris,
  scopes: appScopes,
  /** Public apps (single-page, mobile) have no secret and must use PKCE. */
  public: z.boolean().default(false),
});

export const oauthAppUpdateSchema = z.strictObject({
  id: z.string().min(1).max(64),
  name: name.optional(),
  redirect_uris: redirectUris.optional(),
  scopes: appScopes.optional(),
});

export const idInput = z.strictObject({ id: z.string().min(1).max(64) });
