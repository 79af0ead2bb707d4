import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import { redactText, requestLogs } from './request-logger.js';

/** Framework messages that say nothing a user needs at every start (route mappings, module init). */
const QUIET_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);
/** Contexts whose errors main.ts reports itself, in one line (describeStartupError). */
const REPORTED_BY_MAIN = new Set(['ExceptionHandler', 'NestApplication']);

type Level = 'info' | 'warn' | 'error' | 'debug' | 'trace' | 'fatal';

/**
 * The server's Nest logger, writing through pino in the format of the request log (one JSON line,
 * `level`, `time`, `context`, `msg`). A message logged while a request is served goes through that
 * request's logger and so carries its `reqId` (the error filter's 500s and database outages).
 * It drops the framework's start-up chatter and shortens the database retry messages to one line
 * each. (nestjs-pino 5.x, which supports Nest 12 on Node >= 22.12, gives much the same and could
 * replace this class.)
 */
export class AppLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (QUIET_CONTEXTS.has(contextOf(rest))) return;
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest);
    if (REPORTED_BY_MAIN.has(context)) return;
    if (context === 'TypeOrmModule') {
      // TypeORM says "Unable to connect to the database. Retrying (n)..." before each attempt:
      // the operator reads once, at the first, that the server is retrying and why; the verdict
      // (main.ts) follows when the attempts run out.
      const attempt = /Retrying \((\d+)\)/.exec(String(message));
      if (attempt && attempt[1] !== '1') return;
      const stack = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : '';
      const reason = stack.split('\n')[0];
      const text = attempt
        ? `Cannot connect to the database (DATABASE_URL), retrying for a few seconds${reason ? `: ${reason}` : ''}`
        : `${String(message)}${reason ? ` ${reason}` : ''}`;
      this.write(attempt ? 'warn' : 'error', text, [context]);
      return;
    }
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    const logger = requestLogs.getStore()?.logger ?? this.logger;
    const context = contextOf(rest) || undefined;
    // error(message, stack, context): the stack, when Nest passes one.
    const stack =
      level === 'error' && rest.length > 1 && typeof rest[0] === 'string'
        ? redactText(rest[0])
        : undefined;
    // Messages and stacks may quote a URL (a request's, a source's): its secrets stay out.
    if (message instanceof Error) {
      const code = (message as { code?: unknown }).code;
      const err = {
        type: message.name,
        message: redactText(message.message),
        ...(typeof code === 'string' ? { code } : {}),
      };
      logger[level](
        { context, err: { ...err, stack: redactText(message.stack ?? '') } },
        err.message,
      );
    } else {
      logger[level](
        { context, stack },
        redactText(
          typeof message === 'string' ? message : (JSON.stringify(message) ?? String(message)),
        ),
      );
    }
  }
}

const contextOf = (rest: unknown[]): string => {
  const last = rest[rest.length - 1];
  return typeof last === 'string' && rest.length > 0 ? last : '';
};
