// The SSRF guard: deliveries never reach loopback, private, link-local, metadata or other
// special addresses unless the operator allows them. The check runs on the address actually
// connected to (after DNS, so a name that resolves inward is caught at connect time) and on
// literal IPs, which the URL parser has already normalised from any notation (0x7f.1, 2130706433).
// Ranges come from ipaddr.js, which follows the IANA special-purpose registries; an IPv6
// address that carries an IPv4 one is judged by both.
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

export interface AddressPolicy {
  allowLoopback: boolean;
  allowPrivate: boolean;
}

/** IANA's IPv6 address space: only this block is allocated for global unicast; ipaddr.js calls the unassigned rest 'unicast' too. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** The well-known NAT64 prefix is globally reachable: an address in it is judged by the IPv4 host it carries. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** The IPv4 address an IPv6 one carries, if any: mapped, compatible, NAT64, 6to4 or Teredo. */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  // The last 32 bits: ::ffff:0:0/96, ::ffff:0:0:0/96, 64:ff9b::/96, and 64:ff9b:1::/48 as a /96 (RFC 8215's usual form).
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return v4(p[6], p[7]);
  // IPv4-compatible ::a.b.c.d (deprecated): first 96 bits zero, beyond :: and ::1.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return v4(p[6], p[7]);
  // 6to4 2002:AABB:CCDD::/48 wraps AA.BB.CC.DD.
  if (range === '6to4') return v4(p[1], p[2]);
  // Teredo 2001:0:server:flags:port:client, the client's address inverted.
  if (range === 'teredo') return v4(~p[6] & 0xffff, ~p[7] & 0xffff);
  return undefined;
}

type Kind = 'public' | 'loopback' | 'internal';

function kindOf(address: ipaddr.IPv4 | ipaddr.IPv6): { kind: Kind; range: string } {
  const range = address.range();
  if (range === 'loopback') return { kind: 'loopback', range };
  if (range !== 'unicast') return { kind: 'internal', range };
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_UNICAST_V6)) return { kind: 'internal', range: 'reserved' };
  return { kind: 'public', range };
}

function refusalOf(shown: string, address: ipaddr.IPv4 | ipaddr.IPv6, policy: AddressPolicy): string | undefined {
  const { kind, range } = kindOf(address);
  if (kind === 'loopback' && !policy.allowLoopback) return `${shown} is a loopback address`;
  if (kind === 'internal' && !policy.allowPrivate) return `${shown} is a private, link-local or reserved address (${range})`;
  return undefined;
}

/**
 * ipaddr.js reads the deprecated "::a.b.c.d" as IPv4-mapped ::ffff:a.b.c.d (and resolvers print
 * IPv4-compatible addresses that way): a dotted tail is written as hex first, so it reads what was written.
 */
function hexTail(address: string): string {
  return address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
}

/** Why an address may not be delivered to, or undefined when it may. */
export function refusal(address: string, policy: AddressPolicy): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(net.isIPv6(address) ? hexTail(address) : address);
  } catch {
    return `${address} is not an IP address`;
  }
  if (parsed.kind() === 'ipv4') return refusalOf(address, parsed, policy);
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const inner = embeddedIpv4(v6, range);
  const innerRefusal = inner && refusalOf(`${address} (carrying ${inner.toString()})`, inner, policy);
  // A mapped address is an IPv4 connection, and NAT64 translates to the host it names.
  if (inner && (range === 'ipv4Mapped' || v6.match(NAT64_WELL_KNOWN))) return innerRefusal;
  // Every other wrapper (compatible, 6to4, Teredo, local NAT64) must pass itself, and so must what it carries.
  return refusalOf(address, v6, policy) ?? innerRefusal;
}

export class BlockedAddress extends Error {}

/** Checks a URL before any connection: scheme, and the host when it is a literal IP. */
export function checkUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedAddress(`scheme ${url.protocol} is not delivered to`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    const why = refusal(host, policy);
    if (why) throw new BlockedAddress(why);
  }
}

/** An undici agent whose every connection resolves through the guard. */
export function guardedAgent(policy: AddressPolicy, timeoutMs: number): Agent {
  const lookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: (error: Error | null, address?: string | dns.LookupAddress[], family?: number) => void) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const list = addresses as dns.LookupAddress[];
      for (const entry of list) {
        const why = refusal(entry.address, policy);
        if (why) return callback(new BlockedAddress(`${hostname} resolves to a refused address: ${why}`));
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  }) as typeof dns.lookup;
  return new Agent({ connect: { lookup, timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}
