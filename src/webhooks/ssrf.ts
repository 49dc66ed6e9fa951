// The SSRF guard: deliveries never reach loopback, private, link-local, metadata or other
// special addresses unless the operator allows them. The check runs on the address actually
// connected to (after DNS, so a name that resolves inward is caught at connect time) and on
// literal IPs, which the URL parser has already normalised from any notation (0x7f.1, 2130706433).
import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';

export interface AddressPolicy {
  allowLoopback: boolean;
  allowPrivate: boolean;
}

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const internal = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) internal.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  internal.addSubnet(net6, bits, 'ipv6');
}

/** An IPv4 address carried inside IPv6 (::ffff:a.b.c.d or ::ffff:7f00:1), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const hi = parseInt(match[2], 16);
  const lo = parseInt(match[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why an address may not be delivered to, or undefined when it may. */
export function refusal(address: string, policy: AddressPolicy): string | undefined {
  const v4 = net.isIPv4(address) ? address : embeddedIpv4(address);
  const [ip, family] = v4 ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (loopback.check(ip, family)) return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  if (internal.check(ip, family)) return policy.allowPrivate ? undefined : `${address} is a private, link-local or reserved address`;
  return undefined;
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
  const lookup: typeof dns.lookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void) => {
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
