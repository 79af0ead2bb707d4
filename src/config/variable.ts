import { ConfigError } from './config-error.js';
import { message, type MessageArgs } from './messages.js';

/*
 * The machinery of the configuration schema (schema.ts): a declared environment variable, how its
 * text is read into a value, and the types several variables share.
 */

type Env = Record<string, string | undefined>;

/** What a type is given besides the text: the variable, its text for messages, the others. */
export interface Context {
  readonly name: string;
  /** The text as set (surrounding spaces included), or the default when unset. */
  readonly raw: string;
  /** The text that messages quote: `raw` or the text as read, as the options say. */
  readonly shown: string;
  readonly read: Reader;
  /** Stops the start with one line naming this variable. */
  fail(key: string, args?: MessageArgs): never;
}

/** How a variable's text (empty only when that is its default) becomes its value, or `fail`s. */
export type Type<T> = (text: string, c: Context) => T;

/** A default that follows another variable, and how CONTRACT §1 words it. */
interface DerivedDefault {
  shown: string;
  from(read: Reader): string;
}

interface Options {
  /** The text read when the variable is unset or empty; none: the value is `undefined`. */
  default?: string | DerivedDefault;
  /**
   * Surrounding spaces are not part of the value (the default). `false` where a space may be
   * meant (a password) or where the variable has always refused one (numbers, switches).
   */
  trim?: boolean;
  lowercase?: boolean;
  /** Messages quote the text as set (`raw`), or as read (trimmed, lower case). */
  quote?: 'raw' | 'read';
  /** The variable matters only when this holds (its group is on); otherwise it is not read. */
  when?: (read: Reader) => boolean;
}

export class Variable<T> {
  constructor(
    readonly name: string,
    private readonly type: Type<unknown>,
    private readonly options: Options,
  ) {}

  /** The default as CONTRACT §1 shows it: its text, or the words for one that follows another. */
  get shownDefault(): string | undefined {
    const d = this.options.default;
    return typeof d === 'object' ? d.shown : d;
  }

  /** The text as read; `''` when unset. */
  text(env: Env): string {
    const raw = env[this.name] ?? '';
    const text = this.options.trim === false ? raw : raw.trim();
    return this.options.lowercase ? text.toLowerCase() : text;
  }

  /** The value (read once per environment through `read.get`). */
  parse(read: Reader): T {
    const { default: fallback, quote, when } = this.options;
    if (when && !when(read)) return undefined as T;
    let text = this.text(read.env);
    let raw = read.env[this.name] ?? '';
    if (text === '') {
      if (fallback === undefined) return undefined as T;
      text = raw = typeof fallback === 'string' ? fallback : fallback.from(read);
    }
    const name = this.name;
    return this.type(text, {
      name,
      raw,
      shown: quote === 'raw' ? raw : text,
      read,
      fail: (key, args) => {
        throw new ConfigError(name, message(key, args));
      },
    }) as T;
  }
}

/**
 * Declares variable `name` of `type`. One with a default has a value whenever its group is on;
 * one without is `undefined` when unset.
 */
export function variable<T>(
  name: string,
  type: Type<T>,
  options: Options & { default: string | DerivedDefault; when?: undefined },
): Variable<T>;
export function variable<T>(
  name: string,
  type: Type<T>,
  options?: Options,
): Variable<T | undefined>;
export function variable<T>(
  name: string,
  type: Type<T>,
  options: Options = {},
): Variable<T | undefined> {
  return new Variable<T | undefined>(name, type, options);
}

/** One environment, each variable read at most once. */
export class Reader {
  private readonly values = new Map<Variable<unknown>, unknown>();

  constructor(readonly env: Env) {}

  get<T>(declared: Variable<T>): T {
    if (!this.values.has(declared)) this.values.set(declared, declared.parse(this));
    return this.values.get(declared) as T;
  }

  /** Whether the variable is set to something (its value is not read). */
  given(declared: Variable<unknown>): boolean {
    return declared.text(this.env) !== '';
  }
}

// The types several variables share.

/** `true`/`false` in the words people write them (`1`, `yes`, `on`, `0`, `no`, `off`). */
export const boolean: Type<boolean> = (text, c) => {
  if (/^(1|true|yes|on)$/i.test(text)) return true;
  if (/^(0|false|no|off)$/i.test(text)) return false;
  return c.fail('config.boolean', { value: c.shown });
};

/** A whole number from `min` (0 unless given) to `max`, of at most `digits` digits. */
export function integer(bounds: {
  min?: number;
  max?: number;
  digits?: number;
  message: string;
}): Type<number> {
  // Digits only, and at most `digits` of them: a length check, not a pattern built at run time.
  const maxDigits = bounds.digits ?? Infinity;
  return (text, c) => {
    const n = Number(text);
    const whole = /^\d+$/.test(text) && text.length <= maxDigits;
    if (!whole || n < (bounds.min ?? 0) || (bounds.max !== undefined && n > bounds.max))
      c.fail(
        bounds.message,
        bounds.max === undefined ? { value: c.shown } : { max: bounds.max, value: c.shown },
      );
    return n;
  };
}

/** One of a few words. */
export function oneOf<const V extends string>(
  values: readonly V[],
  key = 'config.one_of',
): Type<V> {
  return (text, c) =>
    (values as readonly string[]).includes(text)
      ? (text as V)
      : c.fail(key, { values: values.join(', '), value: c.shown });
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** `90s`, `15m`, `12h`, `30d`, `500ms` in milliseconds; NaN for anything else. */
export function milliseconds(text: string): number {
  const match = DURATION.exec(text.trim());
  return match ? Number(match[1]) * UNITS[match[2]] : NaN;
}

/** A duration of at least `min` ms; one longer than `cap` is cut to it. */
export function duration(bounds: { min: number; cap?: number; message: string }): Type<number> {
  return (text, c) => {
    const ms = milliseconds(text);
    if (!(ms >= bounds.min)) c.fail(bounds.message, { min: bounds.min, value: c.shown });
    return bounds.cap === undefined ? ms : Math.min(ms, bounds.cap);
  };
}

/** An http(s) URL. */
export function httpUrl(key: string): Type<string> {
  return (text, c) => {
    let url: URL | null;
    try {
      url = new URL(text);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      c.fail(key, { value: c.shown });
    }
    return text;
  };
}

/**
 * `value` without its trailing `/`s, by a scan from the end: the pattern `/\/+$/` would retry
 * every run of slashes from each of its positions, which is quadratic in the input.
 */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === '/') end--;
  return value.slice(0, end);
}
