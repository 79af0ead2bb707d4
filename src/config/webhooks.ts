import { BlockList, isIP } from 'node:net';
import { ConfigError } from './config-error.js';
import { message, type Message } from './messages.js';

/**
 * Where deliveries may go. Public addresses over https always; loopback, private, link-local,
 * shared, multicast, reserved and cloud-metadata addresses only when the operator lists them
 * (WEBHOOK_ALLOWED_TARGETS: host names, addresses and CIDR ranges), and then over http as well.
 * The rule is applied to the URL's host when a subscription is written and to every address a
 * delivery connects to, after DNS resolution (sender.ts), so a name that later resolves inside
 * the network is refused too.
 */
export interface AllowedTargets {
  /** Host names (lower case) allowed whatever they resolve to. */
  hosts: ReadonlySet<string>;
  /** Addresses and ranges allowed. */
  ranges: BlockList;
  /** The setting as given, for messages. */
  entries: readonly string[];
}

const HOST_NAME = /^[a-z0-9.-]+$/;

/** Parses WEBHOOK_ALLOWED_TARGETS; a bad entry is named in the ConfigError it throws. */
export function parseAllowedTargets(raw: string | undefined): AllowedTargets {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  const entries = (raw ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (entries.length > 100) fail(message('config.too_many_targets', { count: 100 }));
  for (const entry of entries) {
    const slash = entry.indexOf('/');
    if (slash >= 0) {
      const address = unbracket(entry.slice(0, slash));
      const family = isIP(address);
      const prefix = entry.slice(slash + 1);
      if (!family || !/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) {
        fail(message('config.not_cidr', { value: entry }));
      }
      ranges.addSubnet(address, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
    } else if (isIP(unbracket(entry))) {
      const address = unbracket(entry);
      ranges.addAddress(address, isIP(address) === 4 ? 'ipv4' : 'ipv6');
    } else if (entry.length <= 253 && HOST_NAME.test(entry)) {
      hosts.add(entry);
    } else {
      fail(message('config.not_target', { value: entry }));
    }
  }
  return { hosts, ranges, entries };
}

/** A host as URLs write IPv6 addresses (in brackets), without them. */
export const unbracket = (host: string) =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;

/** The webhook settings (CONTRACT §1), read once with the rest of the configuration. */
export interface WebhookConfig {
  /** WEBHOOK_ALLOWED_TARGETS: hosts, addresses and ranges deliveries may reach inside networks. */
  allowedTargets: AllowedTargets;
  /**
   * WEBHOOK_RETRY_SCHEDULE: the waits before each retry of a failed delivery; after the last one
   * the delivery has failed. The default spans more than a day (27 h 35 min).
   */
  retrySchedule: number[];
  /** WEBHOOK_TIMEOUT: the longest a delivery's request may take, connection included. */
  timeoutMs: number;
  /** WEBHOOK_SECRET_GRACE: how long a rotated secret keeps signing beside the new one. */
  secretGraceMs: number;
  /** WEBHOOK_LOG_RETENTION: finished deliveries and dispatched outbox entries are kept this long. */
  retentionMs: number;
  /** WEBHOOK_POLL: how often each process looks for work that other processes committed. */
  pollMs: number;
}

/** WEBHOOK_ALLOWED_TARGETS cannot be used, and why. */
function fail(reason: Message): never {
  throw new ConfigError('WEBHOOK_ALLOWED_TARGETS', reason);
}
