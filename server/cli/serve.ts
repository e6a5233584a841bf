import type { Database } from "@/db/client";
import type { Logger } from "@/server/observability/logger";
import type { ControlRequest, ControlResponse } from "@/server/process-plumbing/control";
import { CommandError, UsageError } from "./command";
import { executeCommand, parseCommand } from "./index";

type ServerContext = { database: Database; production: boolean; adminPassword?: string; log: Logger };

/** How the running server answers the CLI: the same parser and commands the CLI runs itself. */
export function controlHandler(ctx: ServerContext) {
  return async (request: ControlRequest): Promise<ControlResponse> => {
    if (request.type === "ping") return { ok: true, pid: process.pid };
    try {
      const parsed = parseCommand(request.argv);
      if ("help" in parsed) return { ok: false, error: { kind: "usage", message: "Help is printed by the CLI itself." } };
      const adminPassword = request.adminPassword ?? ctx.adminPassword;
      const result = await executeCommand({ database: ctx.database, production: ctx.production, adminPassword }, parsed);
      ctx.log.info({ command: parsed.spec.name }, "cli command carried out");
      return { ok: true, result };
    } catch (error) {
      if (error instanceof UsageError) return { ok: false, error: { kind: "usage", message: error.message, usage: error.usage } };
      if (error instanceof CommandError) return { ok: false, error: { kind: "command", message: error.message } };
      ctx.log.error({ err: error }, "cli command failed");
      return { ok: false, error: { kind: "internal", message: (error as Error).message } };
    }
  };
}
