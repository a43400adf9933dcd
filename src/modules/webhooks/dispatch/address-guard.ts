import dns from 'node:dns';
import net from 'node:net';

/**
 * Addresses a webhook may not reach unless QUIRE_WEBHOOK_ALLOW_PRIVATE says so: loopback, private (RFC 1918,
 * CGNAT, ULA), link-local, multicast, unspecified, and the other special-purpose ranges that name this host or
 * its networks rather than a site on the internet.
 */
const FORBIDDEN = new net.BlockList();
for (const [network, prefix] of [
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
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`) stands for. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(.+)$/i.exec(address);
  if (!match) return undefined;
  const rest = match[1] as string;
  if (net.isIPv4(rest)) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return undefined;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a literal IP address is one a webhook may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return false;
  const mapped = mappedIpv4(address);
  return mapped === undefined ? FORBIDDEN.check(address, 'ipv6') : FORBIDDEN.check(mapped, 'ipv4');
}

/** A URL's host as a literal address (`[::1]` unbracketed), or undefined when it is a name. */
export function literalHost(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return net.isIP(bare) === 0 ? undefined : bare;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(readonly address: string) {
    super(`refused to connect to ${address}: a loopback, private, link-local or multicast address`);
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
