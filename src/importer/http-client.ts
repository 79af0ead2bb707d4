import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../config/paths.js';
import { LocalizedError, type Message } from '../config/messages.js';
import { messages, type Reason } from './messages.js';

/**
 * Why a source could not be read: the importer stops with this one line (a `cli.source.*`
 * message: English in `message`, the operator's language where the CLI prints it).
 */
export class SourceError extends LocalizedError {
  constructor(reason: Message) {
    super(reason.key, reason.args);
  }
}

/** The source answered 401 or 403: the credentials (or their absence) are the problem. */
export function refusal(answer: HttpAnswer, url: string, withCredentials: boolean): SourceError {
  return new SourceError(
    messages.refused(url, answer.status, errorSummary(answer.text), withCredentials),
  );
}

export const isRefusal = (status: number) => status === 401 || status === 403;

export interface HttpOptions {
  /** `Authorization` header value (an application password), if any. */
  authorization?: string;
  /**
   * The one origin (`https://site.example`) the authorization goes to: requests elsewhere,
   * redirects included, are sent without it. Without an origin it is sent nowhere.
   */
  credentialOrigin?: string;
  /** The most bytes of one answer's body; reading stops beyond (default MAX_ANSWER_BYTES). */
  maxBytes?: number;
  /** Per attempt, milliseconds. */
  timeoutMs?: number;
  /** Attempts in all (the first one included). */
  attempts?: number;
  /** Base of the exponential backoff, milliseconds. */
  backoffMs?: number;
  /** Longest wait between two attempts, whatever Retry-After says. */
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  url: string;
  text: string;
}

const version = (() => {
  try {
    return (
      (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version?: string })
        .version ?? '0'
    );
  } catch {
    return '0';
  }
})();

/**
 * The largest answer read: a page of 50 events with long descriptions stays far below it; a
 * source that sends more is not a calendar to trust with the memory of this process.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const MAX_REDIRECTS = 5;

const USER_AGENT = `cal-events-importer/${version} (node ${process.versions.node})`;

/** 429 and 5xx may pass; other answers are final. */
const retryable = (status: number) => status === 429 || status >= 500;

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * A polite HTTP client for the importer: Node's fetch with a User-Agent, a timeout per attempt
 * and retries with exponential backoff and jitter on 429, 5xx, timeouts and network errors
 * (honouring Retry-After up to `maxWaitMs`). Other answers (200, 4xx) are returned as they are.
 * An answer is read up to `maxBytes` and the credentials go to `credentialOrigin` only.
 */
export class HttpClient {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly maxWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests sent, retries included (the summary reports them). */
  requests = 0;
  retries = 0;

  constructor(private readonly options: HttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.attempts = options.attempts ?? 5;
    this.backoffMs = options.backoffMs ?? 500;
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Whether the authorization goes with a request to `url`. */
  sendsCredentials(url: string): boolean {
    const { authorization, credentialOrigin } = this.options;
    return !!authorization && !!credentialOrigin && new URL(url).origin === credentialOrigin;
  }

  get withCredentials(): boolean {
    return !!this.options.authorization;
  }

  async get(url: string, accept = 'application/json'): Promise<HttpAnswer> {
    let lastProblem: Reason = '';
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      this.requests++;
      let waitMs: number | null = null;
      try {
        const answer = await this.fetchOnce(url, accept);
        if (!retryable(answer.status)) return answer;
        lastProblem = `HTTP ${answer.status}`;
        waitMs = retryAfterMs(answer.headers.get('retry-after'));
      } catch (error) {
        // An answer too large or a redirect loop is the same on every attempt.
        if (error instanceof SourceError) throw error;
        lastProblem =
          error instanceof Error && error.name === 'TimeoutError'
            ? messages.noAnswerWithin(this.timeoutMs)
            : describeFetchError(error);
      }
      if (attempt === this.attempts) break;
      this.retries++;
      const backoff = this.backoffMs * 2 ** (attempt - 1);
      const jitter = Math.random() * backoff * 0.5;
      await this.sleep(Math.min(this.maxWaitMs, waitMs ?? backoff + jitter));
    }
    throw new SourceError(messages.gaveUp(url, lastProblem, this.attempts));
  }

  /**
   * One attempt: redirects are followed here, not by fetch, so that each hop is checked for
   * whether the credentials go with it; the body is read up to the byte limit. The timeout
   * covers the whole attempt, body included.
   */
  private async fetchOnce(url: string, accept: string): Promise<HttpAnswer> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let current = url;
    for (let hop = 0; ; hop++) {
      const response = await fetch(current, {
        headers: {
          'User-Agent': USER_AGENT,
          Accept: accept,
          ...(this.sendsCredentials(current) ? { Authorization: this.options.authorization! } : {}),
        },
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        const next = new URL(location, current);
        if (hop >= MAX_REDIRECTS || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          throw new SourceError(messages.tooManyRedirects(url));
        }
        current = next.toString();
        continue;
      }
      const text = await this.readCapped(response, current);
      return { status: response.status, headers: response.headers, url: current, text };
    }
  }

  /** The body as text, refused as soon as it passes the limit (never held whole beyond it). */
  private async readCapped(response: Response, url: string): Promise<string> {
    const limit = this.options.maxBytes ?? MAX_ANSWER_BYTES;
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limit) {
      await response.body?.cancel();
      throw new SourceError(messages.answerTooLarge(url, limit));
    }
    if (!response.body) return '';
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new SourceError(messages.answerTooLarge(url, limit));
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** GET that must answer 200 with JSON. */
  async json(url: string): Promise<{ body: unknown; headers: Headers; url: string }> {
    const answer = await this.get(url);
    if (answer.status !== 200) {
      throw new SourceError(messages.httpStatus(url, answer.status, errorSummary(answer.text)));
    }
    try {
      return { body: JSON.parse(answer.text) as unknown, headers: answer.headers, url: answer.url };
    } catch {
      throw new SourceError(messages.notJson(url));
    }
  }
}

function describeFetchError(error: unknown): Reason {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return messages.networkError(cause.code);
  return error instanceof Error ? (cause?.message ?? error.message) : String(error);
}

/** The WordPress error body's code and message, when the answer is one. */
function errorSummary(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    if (typeof body.code === 'string') {
      return `${body.code}${typeof body.message === 'string' ? `: ${body.message}` : ''}`;
    }
  } catch {
    // not JSON
  }
  return '';
}

/** `Basic base64(user:password)`; spaces in an application password are kept, as WordPress does. */
export const basicAuthorization = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
