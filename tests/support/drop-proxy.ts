import net from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A TCP proxy in front of a server that can lose answers: `dropNextAnswers(n)` makes the next n
 * answers vanish. The request reaches the server whole and the server finishes it (commits, and
 * starts writing its answer); then the proxy destroys the client's socket before a byte of that
 * answer reaches it: the "connection dropped after commit" of a flaky network.
 */
export async function startDropProxy(target: string) {
  const { hostname, port } = new URL(target);
  let drops = 0;
  let dropped = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (drops > 0) {
        drops--;
        dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropNextAnswers(n: number) {
      drops = n;
    },
    /** How many answers were lost so far. */
    dropped: () => dropped,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
