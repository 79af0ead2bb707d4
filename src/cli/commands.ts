import type { PublicUser, UsersService } from '../auth/users/users.service.js';
import type { TrashPurger } from '../posts/purge-trash.js';
import { nowUtcSql } from '../database/utc-sql.js';
import type { IcsImporter } from '../importer/ics-importer.js';
import type { TecImporter } from '../importer/tec-importer.js';
import type { ProgressStream } from '../config/program-output.js';
import { Progress } from '../importer/progress.js';
import type { Translate } from '../config/messages.js';
import { parseAge, parseSince, UsageError, type ParsedCommand } from './command-line.js';
import { icsSummaryLines, summaryLines } from './import-report.js';

const str = (v: string | true | undefined) => (typeof v === 'string' ? v : undefined);

/** What the commands run against. */
export interface CliContext {
  users: UsersService;
  trash: TrashPurger;
  now?: () => Date;
  /** The import commands' services (their own, larger application context). */
  tec?: TecImporter;
  ics?: IcsImporter;
  /** `--quiet-webhooks`: this run's writes are not announced to webhook subscriptions. */
  quietWebhooks?: () => void;
  /** Lines printed while a command runs (dry-run's would-be changes). */
  print?: (line: string) => void;
  /** Where the importers draw their progress: standard error unless given. */
  progress?: ProgressStream;
  env?: NodeJS.ProcessEnv;
  /** The messages in the operator's language. */
  t: Translate;
}

/** The commands that run in the larger application context of the importers. */
export const isImportCommand = (name: string) => name.startsWith('import:');

/** Runs one command; returns the lines to print on standard output. */
export async function runCommand(parsed: ParsedCommand, ctx: CliContext): Promise<string[]> {
  const { args, options } = parsed;
  const { t } = ctx;
  switch (parsed.spec.name) {
    case 'user:create': {
      const { user, password } = await ctx.users.create({
        login: args[0],
        role: str(options.role)!,
        email: str(options.email),
        displayName: str(options['display-name']),
        password: str(options.password),
      });
      // The application password goes alone on the last line, for scripts to pick up.
      return [
        t('cli.user_create.done', { role: user.role, login: user.login, id: user.id }),
        password,
      ];
    }
    case 'user:list': {
      const list = await ctx.users.list();
      if (options.json) return [JSON.stringify(list)];
      return list.length ? userTable(list, t) : [t('cli.user_list.none')];
    }
    case 'user:password': {
      const password = await ctx.users.setPassword(args[0], str(options.password));
      return [t('cli.user_password.done', { login: args[0] }), password];
    }
    case 'user:console-password': {
      const password = await ctx.users.setLoginPassword(args[0], str(options.password));
      return [t('cli.user_console_password.done', { login: args[0] }), password];
    }
    case 'user:delete': {
      if (!(await ctx.users.delete(args[0])))
        throw new CommandError(t('cli.users.no_user', { login: args[0] }));
      return [t('cli.user_delete.done', { login: args[0] })];
    }
    case 'records:purge-trash':
      return purgeTrash(parsed, ctx);
    case 'import:tec':
      return importTec(parsed, ctx);
    case 'import:ics':
      return importIcs(parsed, ctx);
  }
  throw new UsageError(t('cli.parse.unknown_command', { name: parsed.spec.name }));
}

/** A command that ran and could not do what was asked: exit code 1. */
export class CommandError extends Error {}

/** Aligned columns under a header line. */
function userTable(list: PublicUser[], t: Translate): string[] {
  const header = ['id', 'login', 'role', 'email', 'display_name'].map((c) =>
    t(`cli.user_list.columns.${c}`),
  );
  const rows = list.map((u) => [String(u.id), u.login, u.role, u.email, u.display_name]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows].map((r) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** records:purge-trash: empties the trash, or what has been in it longer than `--older-than`. */
async function purgeTrash(parsed: ParsedCommand, ctx: CliContext): Promise<string[]> {
  const { options } = parsed;
  const { t } = ctx;
  const age = str(options['older-than']);
  let before: string | null = null;
  if (age !== undefined) {
    const ms = parseAge(age);
    if (ms === null) {
      throw new UsageError(t('cli.invalid.age', { option: 'older-than', value: age }), parsed.spec);
    }
    before = nowUtcSql(new Date((ctx.now?.() ?? new Date()).getTime() - ms));
  }
  const counts = await ctx.trash.purge(before);
  const total = counts.events + counts.venues + counts.organizers;
  const kinds = { ...counts, age: age ?? '' };
  return [
    total
      ? t(age ? 'cli.purge.done_older' : 'cli.purge.done', kinds)
      : t(age ? 'cli.purge.nothing_older' : 'cli.purge.nothing', { age: age ?? '' }),
  ];
}

/** import:tec: copies events, venues, organizers and terms from a site with the plugin. */
async function importTec(parsed: ParsedCommand, ctx: CliContext): Promise<string[]> {
  const { args, options } = parsed;
  const { t } = ctx;
  const password = str(options.password) ?? ctx.env?.IMPORT_PASSWORD;
  const user = str(options.user);
  if ((user === undefined) !== (password === undefined)) {
    throw new UsageError(t('cli.import_tec.user_and_password'), parsed.spec);
  }
  const since = str(options.since);
  if (options['quiet-webhooks'] === true) ctx.quietWebhooks?.();
  const summary = await ctx.tec!.run(args[0], {
    author: str(options.author)!,
    user,
    password,
    since: since ? parseSince(since)! : undefined,
    dryRun: options['dry-run'] === true,
    concurrency: Number(str(options.concurrency) ?? 4),
    trustHtml: options['trust-html'] === true,
    progress: new Progress(ctx.progress ?? process.stderr),
    print: ctx.print,
    t,
  });
  return summaryLines(summary, options['dry-run'] === true, t);
}

/** import:ics: imports the events of an iCalendar feed within a window of dates. */
async function importIcs(parsed: ParsedCommand, ctx: CliContext): Promise<string[]> {
  const { args, options } = parsed;
  const { t } = ctx;
  const fromText = str(options.from);
  const toText = str(options.to);
  const now = ctx.now?.() ?? new Date();
  const from = fromText
    ? parseSince(fromText)!
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const to = toText
    ? parseSince(toText)!
    : new Date(Date.UTC(from.getUTCFullYear() + 1, from.getUTCMonth(), from.getUTCDate()));
  if (to <= from) throw new UsageError(t('cli.import_ics.to_before_from'), parsed.spec);
  if (options['quiet-webhooks'] === true) ctx.quietWebhooks?.();
  const summary = await ctx.ics!.run(args[0], {
    author: str(options.author)!,
    from,
    to,
    dryRun: options['dry-run'] === true,
    progress: new Progress(ctx.progress ?? process.stderr),
    print: ctx.print,
    t,
  });
  return icsSummaryLines(summary, options['dry-run'] === true, t);
}
