// The SSRF guard against the IANA special-purpose address registries (IPv4 and IPv6, as
// published in 2025), every row: its first and last address are refused, and so is every
// address just outside it unless that one is ordinary global unicast. IPv6 addresses that
// carry an IPv4 one (mapped, compatible, NAT64, 6to4, Teredo) are judged by what they carry.
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../src/webhooks/ssrf.js';

const strict = { allowLoopback: false, allowPrivate: false };

/** iana-ipv4-special-registry: address block, name. */
const IPV4_SPECIAL: [string, string][] = [
  ['0.0.0.0/8', '"This network" (RFC 791)'],
  ['0.0.0.0/32', '"This host on this network" (RFC 1122)'],
  ['10.0.0.0/8', 'Private-Use (RFC 1918)'],
  ['100.64.0.0/10', 'Shared Address Space (RFC 6598)'],
  ['127.0.0.0/8', 'Loopback (RFC 1122)'],
  ['169.254.0.0/16', 'Link Local (RFC 3927)'],
  ['172.16.0.0/12', 'Private-Use (RFC 1918)'],
  ['192.0.0.0/24', 'IETF Protocol Assignments (RFC 6890)'],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix (RFC 7335)'],
  ['192.0.0.8/32', 'IPv4 dummy address (RFC 7600)'],
  ['192.0.0.9/32', 'Port Control Protocol Anycast (RFC 7723)'],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast (RFC 8155)'],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery (RFC 8880)'],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery (RFC 8880)'],
  ['192.0.2.0/24', 'Documentation TEST-NET-1 (RFC 5737)'],
  ['192.31.196.0/24', 'AS112-v4 (RFC 7535)'],
  ['192.52.193.0/24', 'AMT (RFC 7450)'],
  ['192.88.99.0/24', 'Deprecated 6to4 Relay Anycast (RFC 7526)'],
  ['192.88.99.2/32', '6a44-relay anycast address (RFC 6751)'],
  ['192.168.0.0/16', 'Private-Use (RFC 1918)'],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service (RFC 7534)'],
  ['198.18.0.0/15', 'Benchmarking (RFC 2544)'],
  ['198.51.100.0/24', 'Documentation TEST-NET-2 (RFC 5737)'],
  ['203.0.113.0/24', 'Documentation TEST-NET-3 (RFC 5737)'],
  ['240.0.0.0/4', 'Reserved (RFC 1112)'],
  ['255.255.255.255/32', 'Limited Broadcast (RFC 919)'],
];

/** iana-ipv6-special-registry: address block, name. */
const IPV6_SPECIAL: [string, string][] = [
  ['::1/128', 'Loopback Address (RFC 4291)'],
  ['::/128', 'Unspecified Address (RFC 4291)'],
  ['::ffff:0:0/96', 'IPv4-mapped Address (RFC 4291)'],
  ['64:ff9b::/96', 'IPv4-IPv6 Translat. (RFC 6052)'],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translat., local use (RFC 8215)'],
  ['100::/64', 'Discard-Only Address Block (RFC 6666)'],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix (RFC 9780)'],
  ['2001::/23', 'IETF Protocol Assignments (RFC 2928)'],
  ['2001::/32', 'TEREDO (RFC 4380)'],
  ['2001:1::1/128', 'Port Control Protocol Anycast (RFC 7723)'],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast (RFC 8155)'],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast (RFC 9665)'],
  ['2001:2::/48', 'Benchmarking (RFC 5180)'],
  ['2001:3::/32', 'AMT (RFC 7450)'],
  ['2001:4:112::/48', 'AS112-v6 (RFC 7535)'],
  ['2001:10::/28', 'Deprecated, previously ORCHID (RFC 4843)'],
  ['2001:20::/28', 'ORCHIDv2 (RFC 7343)'],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (RFC 9374)'],
  ['2001:db8::/32', 'Documentation (RFC 3849)'],
  ['2002::/16', '6to4 (RFC 3056)'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service (RFC 7534)'],
  ['3fff::/20', 'Documentation (RFC 9637)'],
  ['5f00::/16', 'Segment Routing SIDs (RFC 9602)'],
  ['fc00::/7', 'Unique-Local (RFC 4193)'],
  ['fe80::/10', 'Link-Local Unicast (RFC 4291)'],
];

/** Not in the special-purpose registries but never a webhook receiver: multicast, deprecated site-local, IPv4-compatible. */
const OTHER_SPECIAL: [string, string][] = [
  ['224.0.0.0/4', 'IPv4 multicast (RFC 5771)'],
  ['ff00::/8', 'IPv6 multicast (RFC 4291)'],
  ['fec0::/10', 'Site-local, deprecated (RFC 3879)'],
  ['::/96', 'IPv4-compatible, deprecated (RFC 4291)'],
];

const ALL = [...IPV4_SPECIAL, ...IPV6_SPECIAL, ...OTHER_SPECIAL];

/** An address as an integer (32 or 128 bits) and back. */
function toBig(address: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  return address.toByteArray().reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);
}
function fromBig(n: bigint, bytes: number): string {
  const out: number[] = [];
  for (let i = 0; i < bytes; i++) out.unshift(Number((n >> BigInt(8 * i)) & 255n));
  return ipaddr.fromByteArray(out).toString();
}
function bounds(cidr: string): { first: bigint; last: bigint; bytes: number } {
  const [base, bits] = ipaddr.parseCIDR(cidr);
  const bytes = base.kind() === 'ipv4' ? 4 : 16;
  const size = 1n << BigInt(bytes * 8 - bits);
  const first = (toBig(base) / size) * size;
  return { first, last: first + size - 1n, bytes };
}
const inAny = (n: bigint, bytes: number) => ALL.some(([cidr]) => {
  const b = bounds(cidr);
  return b.bytes === bytes && n >= b.first && n <= b.last;
});
const globalUnicastV6 = bounds('2000::/3');

describe('SSRF guard: IANA special-purpose ranges', () => {
  it.each(ALL)('refuses the first, middle and last address of %s (%s)', (cidr) => {
    const { first, last, bytes } = bounds(cidr);
    for (const n of [first, first + (last - first) / 2n, last]) {
      const address = fromBig(n, bytes);
      // The well-known NAT64 prefix is judged by the IPv4 host it carries: its midpoint carries 128.0.0.0, a public host.
      if (cidr === '64:ff9b::/96' && n !== first && n !== last) continue;
      expect(refusal(address, strict), `${address} in ${cidr}`).toBeDefined();
    }
  });

  it.each(ALL)('delivers to ordinary global unicast just outside %s', (cidr) => {
    const { first, last, bytes } = bounds(cidr);
    const max = (1n << BigInt(bytes * 8)) - 1n;
    for (const n of [first - 1n, last + 1n]) {
      if (n < 0n || n > max || inAny(n, bytes)) continue;
      if (bytes === 16 && (n < globalUnicastV6.first || n > globalUnicastV6.last)) continue;
      const address = fromBig(n, bytes);
      expect(refusal(address, strict), `${address} beside ${cidr}`).toBeUndefined();
    }
  });

  it('judges an IPv6 address by the IPv4 address it carries', () => {
    const refused = [
      '::127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:0:10.0.0.1',
      '64:ff9b::127.0.0.1', '64:ff9b::169.254.169.254', '64:ff9b:1::7f00:1', '64:ff9b:1::808:808',
      '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:808:808::1',
      // Teredo: server 65.54.227.120, client 127.0.0.1 and 169.254.169.254 (inverted in the last 32 bits).
      '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:4136:e378:8000:63bf:5601:5601',
      'fec0::1', 'fe80::1', 'fd00:ec2::254', '::8.8.8.8',
    ];
    for (const address of refused) expect(refusal(address, strict), address).toBeDefined();
    for (const address of ['8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80e::200e']) {
      expect(refusal(address, strict), address).toBeUndefined();
    }
  });

  it('opens loopback and private addresses only as the operator allows, wrapped or not', () => {
    const loopbackOnly = { allowLoopback: true, allowPrivate: false };
    const privateOnly = { allowLoopback: false, allowPrivate: true };
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '64:ff9b::7f00:1']) {
      expect(refusal(address, loopbackOnly), address).toBeUndefined();
      expect(refusal(address, privateOnly), address).toMatch(/loopback/);
    }
    // Wrapped in a deprecated or local form, loopback needs both permissions.
    for (const address of ['::127.0.0.1', '2002:7f00:1::', '64:ff9b:1::7f00:1']) {
      expect(refusal(address, loopbackOnly), address).toMatch(/private, link-local or reserved/);
      expect(refusal(address, privateOnly), address).toMatch(/loopback/);
      expect(refusal(address, { allowLoopback: true, allowPrivate: true }), address).toBeUndefined();
    }
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1', '2002:a9fe:a9fe::']) {
      expect(refusal(address, privateOnly), address).toBeUndefined();
      expect(refusal(address, loopbackOnly), address).toMatch(/private, link-local or reserved/);
    }
  });
});
