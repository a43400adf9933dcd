import type os from 'node:os';

/**
 * IPv6 literals that reach a loopback, private or link-local IPv4 address, or a range nothing on the internet
 * answers at: each must be refused as a webhook's host, at creation and at delivery.
 */
export const FORBIDDEN_FORMS: ReadonlyArray<readonly [address: string, form: string]> = [
  ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
  ['::a00:1', 'IPv4-compatible 10.0.0.1'],
  ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1'],
  ['::ffff:10.0.0.1', 'IPv4-mapped 10.0.0.1, dotted'],
  ['::ffff:0:7f00:1', 'IPv4-translated 127.0.0.1'],
  ['::ffff:0:a9fe:a9fe', 'IPv4-translated 169.254.169.254'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 well-known prefix, 169.254.169.254'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix, 127.0.0.1'],
  ['64:ff9b:1:ab::c0a8:101', 'NAT64 local-use prefix, 192.168.1.1'],
  ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1'],
  ['fec0::1', 'site-local'],
  ['fec0:1:2::3', 'site-local'],
];

/** Public addresses written in the same forms: accepted. */
export const PUBLIC_FORMS: readonly string[] = ['2002:808:808::1', '::ffff:808:808', '2606:4700:4700::1111'];

/** A server whose one interface has public addresses (documentation ranges, in no list of forbidden ones). */
export const PUBLIC_INTERFACE: ReturnType<typeof os.networkInterfaces> = {
  eth9: [
    {
      address: '203.0.113.7',
      netmask: '255.255.255.0',
      family: 'IPv4',
      mac: '02:00:00:00:00:09',
      internal: false,
      cidr: '203.0.113.7/24',
    },
    {
      address: '2001:db8:1::7',
      netmask: 'ffff:ffff:ffff:ffff::',
      family: 'IPv6',
      mac: '02:00:00:00:00:09',
      internal: false,
      cidr: '2001:db8:1::7/64',
      scopeid: 0,
    },
  ],
};

/** That interface's addresses, and its IPv4 address mapped and through 6to4. */
export const OWN_ADDRESSES: readonly string[] = [
  '203.0.113.7',
  '::ffff:cb00:7107',
  '2002:cb00:7107::1',
  '2001:db8:1::7',
];

/** A literal address as a URL's host. */
export const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);
