import { createHash } from "node:crypto";
import { chmodSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * The server's local control channel: a Unix domain socket (mode 0600, so only this machine's
 * user that runs the server can connect) through which the CLI has the server run its commands
 * while the server holds the embedded database. One JSON line each way per connection.
 */
const requestSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("ping") }),
  z.object({ type: z.literal("run"), argv: z.array(z.string()).max(200), adminPassword: z.string().optional() }),
]);
export type ControlRequest = z.infer<typeof requestSchema>;

export type ControlError = { kind: "usage" | "command" | "internal"; message: string; usage?: string };
export type ControlResponse = { ok: true; pid?: number; result?: object } | { ok: false; error: ControlError };

/** The control channel could not be reached (no socket, refused, or no answer in time). */
export class ControlUnreachable extends Error {}

const maxMessageBytes = 1024 * 1024;
/** Linux's limit for a socket path is 107 bytes. */
const maxSocketPath = 100;

/** DATA_DIR/innkeep.sock, or a name in the temporary folder derived from it when that is too long. */
export function socketPathFor(dataDir: string): string {
  const preferred = path.join(path.resolve(dataDir), "innkeep.sock");
  if (Buffer.byteLength(preferred) <= maxSocketPath) return preferred;
  const digest = createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), `innkeep-${digest}.sock`);
}

/** Reads one newline-terminated JSON message from a socket. */
function readMessage(socket: net.Socket, onMessage: (text: string) => void, onTooLarge: () => void) {
  let buffered = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffered += chunk;
    const end = buffered.indexOf("\n");
    if (end !== -1) {
      socket.removeAllListeners("data");
      onMessage(buffered.slice(0, end));
    } else if (buffered.length > maxMessageBytes) {
      socket.removeAllListeners("data");
      onTooLarge();
    }
  });
}

export type ControlServer = { path: string; close(): Promise<void> };

export async function serveControl(socketPath: string, handle: (request: ControlRequest) => Promise<ControlResponse>): Promise<ControlServer> {
  // We hold the database lock, so a socket file left here belongs to a process that died.
  rmSync(socketPath, { force: true });
  const server = net.createServer((socket) => {
    socket.on("error", () => {});
    const reply = (response: ControlResponse) => socket.end(`${JSON.stringify(response)}\n`);
    readMessage(
      socket,
      async (text) => {
        let request: ControlRequest;
        try {
          request = requestSchema.parse(JSON.parse(text));
        } catch {
          return reply({ ok: false, error: { kind: "usage", message: "Malformed control request." } });
        }
        reply(await handle(request));
      },
      () => reply({ ok: false, error: { kind: "usage", message: "Control request too large." } }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // The socket file is created inside listen(); the umask makes it 0600 from its first instant.
    const previous = process.umask(0o177);
    try {
      server.listen(socketPath, () => resolve());
    } finally {
      process.umask(previous);
    }
  });
  chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/** Sends one request and waits for the answer. Throws ControlUnreachable if nobody answers. */
export function callControl(socketPath: string, request: ControlRequest, timeoutMs: number): Promise<ControlResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(socketPath);
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      reject(new ControlUnreachable(message));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    socket.on("error", (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on("end", () => fail("the server closed the connection without answering"));
    readMessage(
      socket,
      (text) => {
        if (settled) return;
        settled = true;
        socket.destroy();
        try {
          resolve(JSON.parse(text) as ControlResponse);
        } catch {
          reject(new ControlUnreachable("the server's answer was not JSON"));
        }
      },
      () => fail("the server's answer was too large"),
    );
  });
}
