import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';

/**
 * IPv4 ranges a webhook may not reach unless QUIRE_WEBHOOK_ALLOW_PRIVATE says so: loopback, private (RFC 1918,
 * CGNAT), link-local, multicast, unspecified, and the other special-purpose ranges that name this host or its
 * networks rather than a site on the internet. BlockList matches an IPv4-mapped IPv6 address
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`) against them too.
 */
const FORBIDDEN_IPV4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;

/**
 * IPv6 ranges refused whole: loopback and unspecified, ULA, link-local, site-local, multicast, and the forms that
 * carry an IPv4 address to a translator or tunnel, which would reach a private one as readily as a public one.
 * They are refused whatever they carry: a local-use NAT64 prefix puts the IPv4 address where its length says,
 * which only its operator knows, Teredo obfuscates it, and no receiver is published at the deprecated forms.
 */
const FORBIDDEN_IPV6 = [
  ['::', 96], // `::`, `::1` and the deprecated IPv4-compatible `::a.b.c.d`
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64, well-known prefix
  ['64:ff9b:1::', 48], // NAT64, local-use prefixes
  ['2001::', 32], // Teredo
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

/** The 6to4 prefix (`2002:aabb:ccdd::/48`) of an IPv4 address: the tunnel's far end is that address. */
function sixToFour(ipv4: string): string {
  const [a, b, c, d] = ipv4.split('.').map(Number) as [number, number, number, number];
  return `2002:${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}::`;
}

const FORBIDDEN = new net.BlockList();
for (const [network, prefix] of FORBIDDEN_IPV4) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
  FORBIDDEN.addSubnet(sixToFour(network), 16 + prefix, 'ipv6');
}
for (const [network, prefix] of FORBIDDEN_IPV6) FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/**
 * This host's own addresses, on every interface, as they are now (an interface can come up or change its
 * address while the server runs): a public address of the server reaches it as surely as loopback does.
 */
function ownAddresses(): net.BlockList {
  const own = new net.BlockList();
  for (const entry of Object.values(os.networkInterfaces()).flat()) {
    if (!entry) continue;
    if (entry.family === 'IPv4') {
      own.addAddress(entry.address, 'ipv4');
      own.addSubnet(sixToFour(entry.address), 48, 'ipv6');
    } else own.addAddress(entry.address, 'ipv6');
  }
  return own;
}

/** Whether a literal IP address is one a webhook may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return FORBIDDEN.check(address, type) || ownAddresses().check(address, type);
}

/** A URL's host as a literal address (`[::1]` unbracketed), or undefined when it is a name. */
export function literalHost(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) === 0 ? undefined : bare;
}

/** What a refused address is, as the refusal at creation and at delivery says. */
export const FORBIDDEN_REASON =
  'a loopback, private, link-local, multicast or other non-public address, or one of this server’s own';

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(readonly address: string) {
    super(`refused to connect to ${address}: ${FORBIDDEN_REASON}`);
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that resolves the name and refuses it when any address it resolves to is
 * forbidden: the check is on the addresses the socket will connect to, so a name that resolves to a private
 * address (or a DNS answer that changed since the URL was checked) is caught at connection time.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (refused) return callback(new ForbiddenAddressError(refused.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
