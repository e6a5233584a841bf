import type { IncomingMessage } from "node:http";
import proxyaddr from "proxy-addr";

/**
 * Which hops in front of the server are trusted proxies: `false` (none: the socket's address is
 * the client's), or proxy-addr's test of an address and its hop (0 is the socket's peer).
 */
export type ProxyTrust = false | ((address: string, hop: number) => boolean);

/**
 * TRUST_PROXY as configured: `0` (or empty, `false`) trusts no proxy; a whole number N trusts the
 * N hops nearest the server (`1`: the one proxy in front of it); otherwise a comma-separated list
 * of addresses, CIDR ranges and proxy-addr's names (`loopback`, `linklocal`, `uniquelocal`).
 * Throws on an entry that is neither.
 */
export function parseProxyTrust(value: string | undefined): ProxyTrust {
  const text = (value ?? "").trim();
  if (text === "" || text === "0" || text === "false") return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return (_address, hop) => hop < hops;
  }
  if (text === "true") {
    throw new Error("TRUST_PROXY=true would trust every hop, so any caller could choose its own address: give the number of proxies (1) or their addresses.");
  }
  return proxyaddr.compile(text.split(",").map((entry) => entry.trim()).filter(Boolean));
}

/**
 * The caller's address: the socket's peer, or, behind trusted proxies, the right-most
 * X-Forwarded-For entry that is not itself a trusted proxy (entries to its left were written by
 * the caller and prove nothing). Undefined when the socket is unknown (the API mounted in Next).
 */
export function addressOf(incoming: IncomingMessage | undefined, trust: ProxyTrust): string | undefined {
  const peer = incoming?.socket?.remoteAddress;
  if (!trust || !incoming || !peer) return peer;
  return proxyaddr(incoming, trust);
}
