import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { unbracket, type AllowedTargets } from '../config/webhooks.js';

/** Ranges no delivery may reach unless allowed (IANA special-purpose registries). */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted quad read as two), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const quad = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number);
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const parts = [...head, ...Array<string>(Math.max(0, fill)).fill('0'), ...tail];
  if (parts.length !== 8 || parts.some((p) => !/^[0-9a-f]{1,4}$/.test(p))) return null;
  return parts.map((p) => parseInt(p, 16));
}

/**
 * An IPv4 address written inside IPv6, as IPv4, in any spelling of the three forms that carry
 * one: IPv4-mapped (`::ffff:10.0.0.1`, `::ffff:a00:1`), IPv4-compatible (`::10.0.0.1`, `::a00:1`,
 * deprecated but routed by some kernels) and IPv4-translated (`::ffff:0:10.0.0.1`).
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g || g[0] || g[1] || g[2] || g[3]) return null;
  const carries = (g[4] === 0 && (g[5] === 0 || g[5] === 0xffff)) || (g[4] === 0xffff && !g[5]);
  if (!carries) return null;
  return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
}

/** Whether `address` is in `list`, as written or as the IPv4 address it carries. */
function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  if (!family) return false;
  if (family === 4) return list.check(address, 'ipv4');
  const v4 = embeddedIpv4(address);
  return list.check(address, 'ipv6') || (v4 !== null && list.check(v4, 'ipv4'));
}

/** Whether a delivery may connect to `address` (an IP address). */
export function addressAllowed(address: string, allowed: AllowedTargets): boolean {
  if (inList(allowed.ranges, address)) return true;
  return !inList(FORBIDDEN, address);
}

/** Whether the URL's host itself is one the operator allowed (which also allows http). */
export function hostAllowed(hostname: string, allowed: AllowedTargets): boolean {
  const host = unbracket(hostname.toLowerCase());
  return isIP(host) ? inList(allowed.ranges, host) : allowed.hosts.has(host);
}

/** Why a target URL is refused (a reason key of webhooks.json and its arguments), or null. */
export type TargetProblem = { key: string; args?: Record<string, string> } | null;

/** The checks that need no DNS: scheme, credentials, and the host when it is an address. */
export function checkTargetUrl(raw: string, allowed: AllowedTargets): TargetProblem {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { key: 'webhooks.reason.url' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { key: 'webhooks.reason.url' };
  if (url.username || url.password) return { key: 'webhooks.reason.credentials' };
  const host = unbracket(url.hostname);
  if (!host) return { key: 'webhooks.reason.url' };
  const permitted = hostAllowed(host, allowed);
  if (url.protocol === 'http:' && !permitted) return { key: 'webhooks.reason.https' };
  if (isIP(host) && !permitted && !addressAllowed(host, allowed)) {
    return { key: 'webhooks.reason.forbidden', args: { address: host } };
  }
  return null;
}

export type Resolver = (host: string) => Promise<string[]>;

/** The system resolver (what the delivery's connection uses too), all addresses. */
export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The whole check of a subscription's URL: checkTargetUrl, then, for a host name the operator
 * did not allow, every address it resolves to. A name that does not resolve is refused: a
 * subscription that can never be delivered is a mistake to report now.
 */
export async function checkTarget(
  raw: string,
  allowed: AllowedTargets,
  resolve: Resolver = systemResolver,
): Promise<TargetProblem> {
  const problem = checkTargetUrl(raw, allowed);
  if (problem) return problem;
  const host = unbracket(new URL(raw).hostname);
  if (isIP(host) || hostAllowed(host, allowed)) return null;
  let addresses: string[];
  try {
    addresses = await withTimeout(resolve(host), 5000);
  } catch {
    return { key: 'webhooks.reason.unresolved', args: { host } };
  }
  if (!addresses.length) return { key: 'webhooks.reason.unresolved', args: { host } };
  const bad = addresses.find((a) => !addressAllowed(a, allowed));
  return bad ? { key: 'webhooks.reason.forbidden', args: { address: bad } } : null;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
