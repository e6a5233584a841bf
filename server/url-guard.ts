import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import ipaddr from "ipaddr.js";
import { ApiError } from "@/server/errors";

export type Lookup = typeof dns.lookup;

/** How the URL of an endpoint is checked at registration (from the engine's settings). */
export type UrlPolicy = { blockPrivateNetworks: boolean; lookup?: Lookup };

/** Why an address may not be called, or null when it is an ordinary public unicast address. */
export function blockedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  } catch {
    return "not an IP address";
  }
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    // Forms that carry an IPv4 address are judged by that address: ::ffff:127.0.0.1 is loopback.
    if (range === "ipv4Mapped") return blockedV4(v6.toIPv4Address(), "IPv4-mapped ");
    if (range === "rfc6052") return blockedV4(ipaddr.fromByteArray(v6.toByteArray().slice(12)) as ipaddr.IPv4, "NAT64 ");
    if (range === "6to4") return blockedV4(ipaddr.fromByteArray(v6.toByteArray().slice(2, 6)) as ipaddr.IPv4, "6to4 ");
    return range === "unicast" ? null : describe(range);
  }
  return blockedV4(parsed as ipaddr.IPv4, "");
}

function blockedV4(v4: ipaddr.IPv4, prefix: string): string | null {
  const range = v4.range();
  return range === "unicast" ? null : `${prefix}${describe(range)}`;
}

const names: Record<string, string> = {
  unspecified: "unspecified",
  loopback: "loopback",
  private: "private (RFC 1918)",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  linkLocal: "link-local",
  multicast: "multicast",
  broadcast: "broadcast",
  uniqueLocal: "unique-local (fc00::/7)",
  reserved: "reserved",
  teredo: "Teredo",
};
const describe = (range: string) => `${names[range] ?? range} address`;

/** The URL's own rules, whatever the environment: http(s), no credentials. */
function parseWebhookUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError("parameter_invalid", "Invalid parameter 'url': not an absolute URL.", { param: "url" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("url_not_allowed", "Webhook URLs must use http or https.", { param: "url" });
  }
  if (url.username || url.password) {
    throw new ApiError("url_not_allowed", "Webhook URLs may not carry credentials; authenticate deliveries by their signature.", { param: "url" });
  }
  return url;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Registration check (contract §7): when private networks are blocked, the host may neither be
 * nor resolve to a loopback, private, CGNAT, link-local, unspecified or multicast address.
 */
export async function assertUrlAllowed(value: string, options: { blockPrivateNetworks: boolean; lookup?: Lookup }): Promise<URL> {
  const url = parseWebhookUrl(value);
  if (!options.blockPrivateNetworks) return url;
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const why = blockedRange(host);
    if (why) throw refused(host, why);
    return url;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await new Promise((resolve, reject) =>
      (options.lookup ?? dns.lookup)(host, { all: true }, (error, list) => (error ? reject(error) : resolve(list as LookupAddress[]))),
    );
  } catch {
    throw new ApiError("url_not_allowed", `The host '${host}' does not resolve.`, { param: "url" });
  }
  for (const { address } of addresses) {
    const why = blockedRange(address);
    if (why) throw refused(host, `${why} ${address}`);
  }
  return url;
}

const refused = (host: string, why: string) =>
  new ApiError("url_not_allowed", `Webhook URLs may not point at a ${why} ('${host}'). Use a public address.`, { param: "url" });

/** The error a guarded connection fails with; recorded on the attempt. */
export class BlockedAddressError extends Error {
  constructor(host: string, address: string, why: string) {
    super(`refused to connect to ${host} (${address}): ${why}`);
    this.name = "BlockedAddressError";
  }
}

/**
 * A `lookup` for http.request that refuses blocked addresses at connection time, on the very
 * address the socket is about to use: a host that resolved to a public address at registration
 * and to 127.0.0.1 now (DNS rebinding) is refused here.
 */
export function guardedLookup(base: Lookup = dns.lookup): Lookup {
  const lookup = (hostname: string, options: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    base(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, options.all ? [] : "", undefined);
      const addresses = list as unknown as LookupAddress[];
      for (const { address } of addresses) {
        const why = blockedRange(address);
        if (why) return callback(Object.assign(new BlockedAddressError(hostname, address, why), { code: "EBLOCKED" }), options.all ? [] : "", undefined);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", undefined);
      callback(null, first.address, first.family);
    });
  };
  return lookup as unknown as Lookup;
}

/** For an IP-literal URL no lookup happens: the literal itself is checked before connecting. */
export function literalBlocked(url: URL): string | null {
  const host = hostOf(url);
  return ipaddr.isValid(host) ? blockedRange(host) : null;
}
