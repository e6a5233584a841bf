import { z } from "zod";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { mailSettings } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { isoTime } from "@/lib/dates";
import { openSecret, sealSecret } from "@/server/sealed-secrets";
import type { Ctx } from "@/server/tenancy";

type Row = typeof mailSettings.$inferSelect;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);
const address = z.string().trim().toLowerCase().email("Give an e-mail address, such as desk@yourhotel.com.").max(320);

/** What an owner saves in Settings → Mail. An empty password keeps the one saved; `clear_password` removes it. */
export const mailSettingsInput = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, "Give the mail server's host name, such as smtp.yourhotel.com.")
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$/, "A host name has letters, digits, dots and dashes only, such as smtp.yourhotel.com."),
  port: z.number().int().min(1).max(65_535),
  username: optionalText(320),
  password: z.string().max(500).optional(),
  clear_password: z.boolean().optional(),
  from_address: address,
  from_name: optionalText(100),
  reply_to: address.optional().or(z.literal("").transform(() => undefined)),
});
export type MailSettingsInput = z.output<typeof mailSettingsInput>;

/** The settings as Settings shows them: never the password, only whether one is kept. */
export const presentMailSettings = (r: Row) => ({
  host: r.host,
  port: r.port,
  username: r.username,
  password_set: r.password !== null,
  from_address: r.fromAddress,
  from_name: r.fromName,
  reply_to: r.replyTo,
  updated_at: isoTime(r.updatedAt),
});

export async function getMailSettings(db: Executor, accountId: string): Promise<Row | undefined> {
  const [row] = await db.select().from(mailSettings).where(eq(mailSettings.accountId, accountId));
  return row;
}

/** Saves the account's mail server (the password sealed, bound to the account), on the trail without the password. */
export async function saveMailSettings({ db, tenant, actor, input }: ChangeCtx & { input: MailSettingsInput }) {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(mailSettings).where(eq(mailSettings.accountId, tenant.accountId)).for("update");
    const password = input.clear_password ? null : input.password ? sealSecret(input.password, tenant.accountId) : (before?.password ?? null);
    const values = {
      host: input.host,
      port: input.port,
      username: input.username ?? null,
      password,
      fromAddress: input.from_address,
      fromName: input.from_name ?? null,
      replyTo: input.reply_to ?? null,
      updatedAt: new Date(),
    };
    const [row] = before
      ? await tx.update(mailSettings).set(values).where(eq(mailSettings.accountId, tenant.accountId)).returning()
      : await tx
          .insert(mailSettings)
          .values({ accountId: tenant.accountId, ...values })
          .returning();
    await audit(
      tx,
      { tenant, actor },
      {
        action: "mail_settings.saved",
        objectType: "mail_settings",
        objectId: tenant.accountId,
        before: before ? presentMailSettings(before) : undefined,
        after: presentMailSettings(row),
      },
    );
    return row;
  });
}

/** Removes the account's mail server: mail then waits for SMTP_URL, or is held. */
export async function removeMailSettings({ db, tenant, actor }: ChangeCtx) {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.delete(mailSettings).where(eq(mailSettings.accountId, tenant.accountId)).returning();
    if (before) await audit(tx, { tenant, actor }, { action: "mail_settings.removed", objectType: "mail_settings", objectId: tenant.accountId, before: presentMailSettings(before) });
    return Boolean(before);
  });
}

/** A mail server to send through: nodemailer's transport options, the sender and where replies go. */
export type MailServer = { transport: string | Record<string, unknown>; from: string | { name: string; address: string }; replyTo?: string };

/** The account's own server, its password opened, as nodemailer takes it. Port 465 speaks TLS from the start; others upgrade with STARTTLS when offered. */
export function accountServer(row: Row): MailServer {
  const pass = row.password ? openSecret(row.password, row.accountId) : undefined;
  return {
    transport: {
      host: row.host,
      port: row.port,
      secure: row.port === 465,
      ...(row.username ? { auth: { user: row.username, pass: pass ?? "" } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    },
    from: row.fromName ? { name: row.fromName, address: row.fromAddress } : row.fromAddress,
    ...(row.replyTo ? { replyTo: row.replyTo } : {}),
  };
}

/** Whether mail of this account can go: its own server, or the process's SMTP_URL. */
export async function mailServerSet(db: Executor, accountId: string, smtpUrl: string | undefined): Promise<boolean> {
  if (smtpUrl) return true;
  return Boolean(await getMailSettings(db, accountId));
}

/** Why a mail server would not take a mail, in words an owner can act on, with the server's own answer where it gave one. */
export function refusalWords(error: unknown, server: { host: string; port: number }): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const said = e.response ? ` The server said: "${e.response.trim()}".` : "";
  // nodemailer reports a refused or unknown host as a socket error; the system's code is in its message.
  const system = /\b(ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EHOSTUNREACH)\b/.exec(e.message ?? "")?.[1];
  switch (system === "EHOSTUNREACH" ? "ETIMEDOUT" : (system ?? e.code)) {
    case "EAUTH":
      return `The mail server refused the user name or password.${said}`;
    case "ECONNREFUSED":
      return `Nothing answered at ${server.host} on port ${server.port}: check the host and the port.`;
    case "ENOTFOUND":
    case "EDNS":
      return `No mail server named ${server.host} could be found: check the host name.`;
    case "ETIMEDOUT":
    case "ECONNECTION":
      return `The mail server at ${server.host} on port ${server.port} did not answer in time, or the connection failed: check the host, the port and that the server lets this hotel's server in.`;
    case "ETLS":
    case "ESOCKET":
      return `The secure connection to ${server.host} failed: port 465 expects TLS from the start, 587 and 25 upgrade to it.${e.message ? ` (${e.message})` : ""}`;
    case "EENVELOPE":
      return `The mail server refused the sender or the recipient.${said}`;
    case "EMESSAGE":
      return `The mail server refused the message.${said}`;
    default:
      return `The mail could not be sent.${said || (e.message ? ` ${e.message}` : "")}`;
  }
}

/** Sends one mail through a server, closing the connection after. */
export async function sendThrough(server: MailServer, mail: { to: string; subject: string; text: string; html?: string }) {
  const { createTransport } = await import("nodemailer");
  const transport = createTransport(server.transport as Parameters<typeof createTransport>[0]);
  try {
    await transport.sendMail({ from: server.from, ...(server.replyTo ? { replyTo: server.replyTo } : {}), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  } finally {
    transport.close();
  }
}

/**
 * "Send test e-mail": one mail through the account's saved server to `to`, at once (not through
 * the outbox), answering whether it went or, in words, why the server refused it.
 */
export async function sendTestMail({ db, tenant, to }: Ctx & { to: string }): Promise<{ sent: true; to: string } | { sent: false; reason: string }> {
  const row = await getMailSettings(db, tenant.accountId);
  if (!row) return { sent: false, reason: "No mail server is saved yet: save the settings first." };
  try {
    await sendThrough(accountServer(row), {
      to,
      subject: "Innkeep test e-mail",
      text: `This is a test from Innkeep. Mail to your guests goes through ${row.host} from ${row.fromAddress}.`,
    });
    return { sent: true, to };
  } catch (error) {
    return { sent: false, reason: refusalWords(error, row) };
  }
}
