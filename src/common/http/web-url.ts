import type { ValueTransformer } from 'typeorm';

/**
 * Links that readers follow (`website`, `image`) are web addresses only (CONTRACT §6 "Links"):
 * `javascript:`, `data:`, `vbscript:` and every other scheme would run or load something in the
 * reader's browser or in whatever client shows the link, so they are refused on write and never
 * served from what an older version stored.
 */

/** What cannot be part of a URL as sent: whitespace and control characters. */
const UNSAFE_CHARACTER = /[\s\p{Cc}]/u;
const WEB_SCHEME = /^https?:\/\/[^/?#]/i;

/** An absolute `http` or `https` URL with a host, as PHP `FILTER_VALIDATE_URL` would take it. */
export function isWebUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !WEB_SCHEME.test(value) || UNSAFE_CHARACTER.test(value)) {
    return false;
  }
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/**
 * A stored link as it may be served: itself when it is a web URL (checked as cheaply as a read
 * allows: the scheme and the characters, both validated in full on write), otherwise nothing.
 */
export function servableUrl(stored: string): string;
export function servableUrl(stored: string | null): string | null;
export function servableUrl(stored: string | null): string | null {
  if (stored === null || stored === '') return stored;
  return WEB_SCHEME.test(stored) && !UNSAFE_CHARACTER.test(stored) ? stored : '';
}

/**
 * The column transformer of stored links: a value no web URL is read as `''` (`null` for
 * `empty: null`), so every output (API, pages, feeds, JSON-LD) sees only web URLs.
 */
export function webUrlColumn(empty: '' | null): ValueTransformer {
  return {
    to: (value: unknown) => value,
    from: (value: string | null) => {
      if (value === null) return null;
      const served = servableUrl(value);
      return served === '' ? empty : served;
    },
  };
}
