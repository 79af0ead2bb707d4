import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a login failure is counted against: an IPv4 address as it is, an IPv4-mapped IPv6
 * address as its IPv4 form, and any other IPv6 address as its /64 network, because a single
 * subscriber is usually given a whole /64 and could otherwise rotate through 2^64 addresses.
 * Anything else (no address, a unix socket) counts as one shared `unknown` client.
 */
export function addressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const zone = ip.indexOf('%');
  const bare = zone < 0 ? ip : ip.slice(0, zone);
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return 'unknown';
  const groups = ipv6Groups(bare);
  // ::ffff:a.b.c.d is an IPv4 client seen through a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(ip: string): number[] {
  const toGroups = (part: string): number[] => {
    if (!part) return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const gap = ip.indexOf('::');
  if (gap < 0) return toGroups(ip);
  const head = toGroups(ip.slice(0, gap));
  const tail = toGroups(ip.slice(gap + 2));
  return [...head, ...Array.from({ length: 8 - head.length - tail.length }, () => 0), ...tail];
}

/**
 * A login as WordPress compares it: surrounding whitespace dropped, inner runs of whitespace
 * collapsed (`sanitize_user()`), letters compared without case (the users table's collation), and
 * Unicode in one normal form, so that `Admin`, ` admin ` and `ADMIN` share one counter.
 */
export function normalizeLogin(login: string): string {
  return login.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The key of a login in the throttle's storage: a hash of the normalized login, so that every key
 * has the same small size whatever the client sends, and the storage never holds the made-up
 * names that guessers try.
 */
export function loginKey(login: string): string {
  return createHash('sha256').update(normalizeLogin(login)).digest('base64url').slice(0, 22);
}
