import ipaddr from "ipaddr.js";

/** Validates a CIDR (or a bare address, taken as /32 or /128) and returns its canonical form. */
export function normalizeCidr(text: string): string | null {
  try {
    if (text.includes("/")) {
      const [addr, bits] = ipaddr.parseCIDR(text);
      return `${addr.toString()}/${bits}`;
    }
    const addr = ipaddr.parse(text);
    return `${addr.toString()}/${addr.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address it carries. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const addr = ipaddr.parse(address);
    return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
      ? (addr as ipaddr.IPv6).toIPv4Address()
      : addr;
  } catch {
    return null;
  }
}

export function ipAllowed(address: string | undefined, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  const addr = address ? parseAddress(address) : null;
  if (!addr) return false;
  return allowList.some((cidr) => {
    const [range, bits] = ipaddr.parseCIDR(cidr);
    let candidate: ipaddr.IPv4 | ipaddr.IPv6 = addr;
    if (range.kind() !== candidate.kind()) {
      // An IPv4 client can match an IPv4-mapped IPv6 range, and the reverse.
      if (candidate.kind() === "ipv4" && range.kind() === "ipv6") candidate = (candidate as ipaddr.IPv4).toIPv4MappedAddress();
      else return false;
    }
    return candidate.match([range, bits]);
  });
}
