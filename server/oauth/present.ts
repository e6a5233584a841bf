import { isoTime, isoTimeOrNull } from "@/lib/dates";
import type { oauthClients, oauthInstalls } from "@/db/schema";

type AppRow = typeof oauthClients.$inferSelect;
type InstallRow = typeof oauthInstalls.$inferSelect;

/** An OAuth app as the dashboard shows it; never its secret (only its hash is stored). */
export const presentApp = (row: AppRow) => ({
  id: row.id,
  object: "oauth_app" as const,
  client_id: row.id,
  name: row.name,
  public: row.public,
  redirect_uris: row.redirectUris,
  scopes: row.scopes,
  has_secret: Boolean(row.secretHash),
  created_at: isoTime(row.createdAt),
  updated_at: isoTime(row.updatedAt),
});

export type PresentedApp = ReturnType<typeof presentApp>;

/** An install: which app, what it may do, where, who installed it and when it was last used. */
export const presentInstall = (
  row: InstallRow,
  extra: { appName: string; installedBy: string | null; properties: { id: string; name: string; livemode: boolean }[] },
) => ({
  id: row.id,
  object: "oauth_install" as const,
  app: { id: row.clientId, name: extra.appName },
  scopes: row.scopes,
  properties: extra.properties,
  installed_by: extra.installedBy,
  installed_at: isoTime(row.createdAt),
  updated_at: isoTime(row.updatedAt),
  last_used_at: isoTimeOrNull(row.lastUsedAt),
  revoked_at: isoTimeOrNull(row.revokedAt),
});

export type PresentedInstall = ReturnType<typeof presentInstall>;
