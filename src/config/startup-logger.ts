import { ConsoleLogger } from '@nestjs/common';

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

/**
 * The server's logger: keeps the application's own messages and warnings, drops the framework's
 * start-up chatter, and shortens the database retry messages to one line each.
 */
export class StartupLogger extends ConsoleLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    if (QUIET_CONTEXTS.has(contextOf(rest, this.context))) return;
    super.log(message, ...rest);
  }

  override error(message: unknown, ...rest: unknown[]): void {
    const context = contextOf(rest, this.context);
    if (REPORTED_BY_MAIN.has(context)) return;
    if (context === 'TypeOrmModule') {
      // "Unable to connect to the database. Retrying (1)..." plus the error's first line, no stack.
      const stack = typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : '';
      const reason = stack.split('\n')[0];
      super.error(`${String(message)}${reason ? ` ${reason}` : ''}`, context);
      return;
    }
    super.error(message, ...rest);
  }
}

const contextOf = (rest: unknown[], fallback: string | undefined): string => {
  const last = rest[rest.length - 1];
  return typeof last === 'string' ? last : (fallback ?? '');
};
