import { MIN_PASSWORD_LENGTH } from '../config/passwords.js';
import { ROLES } from '../common/roles.js';
import type { PublicUser, UsersService } from '../auth/users/users.service.js';
import type { TrashPurger } from '../posts/purge-trash.js';
import { nowUtcSql } from '../database/utc-sql.js';
import type { IcsImporter, IcsSummary } from '../importer/ics-importer.js';
import type { ImportSummary, TecImporter } from '../importer/tec-importer.js';
import type { ProgressStream } from '../config/program-output.js';
import { Progress } from '../importer/progress.js';
import { said, type Reason } from '../importer/messages.js';
import type { Translate } from '../config/messages.js';

/** A mistake in the command line itself: printed with the command's help, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandSpec,
  ) {
    super(message);
  }
}

interface OptionSpec {
  /** Placeholder of the value; absent for a flag that takes none. */
  value?: string;
  required?: boolean;
  /** Catalogue key of the option's help line. */
  help: string;
  /** Checks the value before anything runs: the whole message when it is wrong, or null. */
  invalid?: (value: string, t: Translate) => string | null;
}

/** The texts of a command are catalogue keys (i18n/<language>/cli.json), read when shown. */
export interface CommandSpec {
  name: string;
  /** Required positional arguments, by placeholder name. */
  args: string[];
  /** Key of the one-line summary. */
  summary: string;
  options: Record<string, OptionSpec>;
  /** Key of the lines of explanation after the option list. */
  notes?: string;
}

export interface ParsedCommand {
  spec: CommandSpec;
  args: string[];
  options: Record<string, string | true>;
}

const dateOption =
  (option: string, example: string) =>
  (value: string, t: Translate): string | null =>
    parseSince(value) ? null : t('cli.invalid.date', { option, example, value });

const COMMANDS: CommandSpec[] = [
  {
    name: 'user:create',
    args: ['login'],
    summary: 'cli.user_create.summary',
    options: {
      role: { value: 'ROLE', required: true, help: 'cli.user_create.role' },
      email: { value: 'EMAIL', help: 'cli.user_create.email' },
      password: { value: 'P', help: 'cli.options.own_password' },
      'display-name': { value: 'NAME', help: 'cli.user_create.display_name' },
    },
  },
  {
    name: 'user:list',
    args: [],
    summary: 'cli.user_list.summary',
    options: { json: { help: 'cli.user_list.json' } },
  },
  {
    name: 'user:password',
    args: ['login'],
    summary: 'cli.user_password.summary',
    options: { password: { value: 'P', help: 'cli.options.own_password' } },
  },
  {
    name: 'user:delete',
    args: ['login'],
    summary: 'cli.user_delete.summary',
    options: {},
  },
  {
    name: 'records:purge-trash',
    args: [],
    summary: 'cli.purge.summary',
    options: {
      'older-than': {
        value: 'AGE',
        help: 'cli.purge.older_than',
        invalid: (v, t) =>
          parseAge(v) === null ? t('cli.invalid.age', { option: 'older-than', value: v }) : null,
      },
    },
    notes: 'cli.purge.notes',
  },
  {
    name: 'import:tec',
    args: ['source'],
    summary: 'cli.import_tec.summary',
    options: {
      author: { value: 'LOGIN', required: true, help: 'cli.import_tec.author' },
      user: { value: 'LOGIN', help: 'cli.import_tec.user' },
      password: { value: 'P', help: 'cli.import_tec.password' },
      since: {
        value: 'DATE',
        help: 'cli.import_tec.since',
        invalid: dateOption('since', '2026-11-01'),
      },
      'dry-run': { help: 'cli.options.dry_run' },
      'quiet-webhooks': { help: 'cli.options.quiet_webhooks' },
      concurrency: {
        value: 'N',
        help: 'cli.import_tec.concurrency',
        invalid: (v, t) =>
          /^([1-9]|1[0-6])$/.test(v)
            ? null
            : t('cli.invalid.concurrency', { option: 'concurrency', value: v }),
      },
      'trust-html': { help: 'cli.import_tec.trust_html' },
    },
    notes: 'cli.import_tec.notes',
  },
  {
    name: 'import:ics',
    args: ['file-or-url'],
    summary: 'cli.import_ics.summary',
    options: {
      author: { value: 'LOGIN', required: true, help: 'cli.import_ics.author' },
      from: {
        value: 'DATE',
        help: 'cli.import_ics.from',
        invalid: dateOption('from', '2026-11-01'),
      },
      to: { value: 'DATE', help: 'cli.import_ics.to', invalid: dateOption('to', '2027-11-01') },
      'dry-run': { help: 'cli.options.dry_run' },
      'quiet-webhooks': { help: 'cli.options.quiet_webhooks' },
    },
    notes: 'cli.import_ics.notes',
  },
];

/** `--since`: a date or date-time, read as UTC unless it carries its own offset. */
export function parseSince(value: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?)(Z|[+-]\d{2}:\d{2})?)?$/.exec(
    value.trim(),
  );
  if (!match) return null;
  const time = match[2] ? (match[2].length === 5 ? `${match[2]}:00` : match[2]) : '00:00:00';
  const date = new Date(`${match[1]}T${time}${match[3] ?? 'Z'}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function synopsis(spec: CommandSpec): string {
  const opts = Object.entries(spec.options).map(([name, o]) => {
    const text = o.value ? `--${name} ${o.value}` : `--${name}`;
    return o.required ? text : `[${text}]`;
  });
  return ['npm run cli --', spec.name, ...spec.args.map((a) => `<${a}>`), ...opts].join(' ');
}

export function usage(t: Translate): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    t('cli.usage.title'),
    '',
    t('cli.usage.commands'),
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${t(c.summary)}`),
    '',
    t('cli.usage.more'),
  ].join('\n');
}

/** A summary as a sentence of its own: capital first, full stop last. */
const sentence = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}.`;

/** An option's help line; a few name values that are not words. */
const optionHelp = (o: OptionSpec, t: Translate) =>
  t(o.help, { roles: ROLES.join(', '), min: MIN_PASSWORD_LENGTH, count: MIN_PASSWORD_LENGTH });

export function commandHelp(spec: CommandSpec, t: Translate): string {
  const help: OptionSpec = { help: 'cli.usage.help_option' };
  const options = Object.entries({ ...spec.options, help });
  const labels = options.map(([name, o]) => (o.value ? `--${name} ${o.value}` : `--${name}`));
  const width = Math.max(...labels.map((l) => l.length));
  return [
    t('cli.usage.synopsis', { synopsis: synopsis(spec) }),
    '',
    sentence(t(spec.summary)),
    '',
    t('cli.usage.options'),
    ...options.map(([, o], i) => `  ${labels[i].padEnd(width)}  ${optionHelp(o, t)}`),
    ...(spec.notes ? ['', t(spec.notes)] : []),
  ].join('\n');
}

/**
 * The command line, strictly: an unknown command or option, an option without its value, a
 * value given to a flag, a missing or extra argument are all usage errors. Returns 'help' (with
 * the command, when one was named) for `--help`, `-h` and `help [command]`.
 */
export function parseCommandLine(
  argv: string[],
  t: Translate,
): ParsedCommand | { help: true; spec?: CommandSpec } {
  const find = (name: string) => COMMANDS.find((c) => c.name === name);
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(t('cli.parse.no_command'));
  if (first === 'help' || first === '--help' || first === '-h') {
    const named = rest[0];
    if (named === undefined) return { help: true };
    const spec = find(named);
    if (!spec) throw new UsageError(t('cli.parse.unknown_command', { name: named }));
    return { help: true, spec };
  }
  const spec = find(first);
  if (!spec)
    throw new UsageError(
      t(first.startsWith('-') ? 'cli.parse.unknown_option' : 'cli.parse.unknown_command', {
        name: first,
      }),
    );
  const args: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i];
    if (token === '--help' || token === '-h') return { help: true, spec };
    if (!token.startsWith('-') || token === '-') {
      args.push(token);
      continue;
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq === -1 ? undefined : eq);
    const option = token.startsWith('--') ? spec.options[name] : undefined;
    if (!option) {
      const unknown = token.split('=')[0];
      throw new UsageError(
        t('cli.parse.no_such_option', { command: spec.name, option: unknown }),
        spec,
      );
    }
    if (name in options) throw new UsageError(t('cli.parse.given_twice', { option: name }), spec);
    if (!option.value) {
      if (eq !== -1) throw new UsageError(t('cli.parse.takes_no_value', { option: name }), spec);
      options[name] = true;
      continue;
    }
    const value = eq !== -1 ? token.slice(eq + 1) : rest[i + 1];
    if (value === undefined || (eq === -1 && value.startsWith('--')) || value === '') {
      throw new UsageError(t('cli.parse.needs_value', { option: name, value: option.value }), spec);
    }
    if (eq === -1) i++;
    const problem = option.invalid?.(value, t);
    if (problem) throw new UsageError(problem, spec);
    options[name] = value;
  }
  if (args.length < spec.args.length) {
    throw new UsageError(
      t('cli.parse.needs_argument', { command: spec.name, argument: spec.args[args.length] }),
      spec,
    );
  }
  if (args.length > spec.args.length) {
    throw new UsageError(
      t('cli.parse.extra_argument', { command: spec.name, argument: args[spec.args.length] }),
      spec,
    );
  }
  for (const [name, o] of Object.entries(spec.options)) {
    if (o.required && !(name in options))
      throw new UsageError(
        t('cli.parse.needs_option', { command: spec.name, option: name, value: o.value ?? '' }),
        spec,
      );
  }
  return { spec, args, options };
}

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
    case 'user:delete': {
      if (!(await ctx.users.delete(args[0])))
        throw new CommandError(t('cli.users.no_user', { login: args[0] }));
      return [t('cli.user_delete.done', { login: args[0] })];
    }
    case 'records:purge-trash': {
      const age = str(options['older-than']);
      let before: string | null = null;
      if (age !== undefined) {
        const ms = parseAge(age);
        if (ms === null) {
          throw new UsageError(
            t('cli.invalid.age', { option: 'older-than', value: age }),
            parsed.spec,
          );
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
    case 'import:tec': {
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
    case 'import:ics': {
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
  }
  throw new UsageError(t('cli.parse.unknown_command', { name: parsed.spec.name }));
}

/** The labels of a summary's kinds (`event:`), padded alike in every language. */
function kindLabels(kinds: string[], t: Translate): Map<string, string> {
  const labels = kinds.map((k) => `${t(`cli.import.kinds.${k}`)}:`);
  const width = Math.max(10, ...labels.map((l) => l.length));
  return new Map(kinds.map((k, i) => [k, labels[i].padEnd(width + 1)]));
}

type Counts = { created: number; updated: number; unchanged: number; skipped: number };

const counted = (c: Counts, t: Translate) => t('cli.import.counts', { ...c });

/** A skipped record: its kind (when the source has several), id, title and the reason. */
function skippedLine(
  s: { kind?: string; sourceId: string | number; title: string; reason: Reason },
  t: Translate,
): string {
  const kind = s.kind ? `${t(`cli.import.kinds.${s.kind}`)} ` : '';
  const reason = said(s.reason, t);
  if (!s.title) return `  ${kind}${s.sourceId}: ${reason}`;
  return `  ${t('cli.import.skipped_item', { kind, id: s.sourceId, title: s.title, reason })}`;
}

function icsSummaryLines(summary: IcsSummary, dryRun: boolean, t: Translate): string[] {
  const c = summary.counts;
  const labels = kindLabels(['event', ...Object.keys(summary.linked)], t);
  const lines = [
    t(dryRun ? 'cli.import.dry_run' : 'cli.import.imported', { source: summary.source }),
    `  ${labels.get('event')}${counted(c, t)}`,
  ];
  // What the events' LOCATION, ORGANIZER and CATEGORIES brought along (written with an event).
  for (const [kind, l] of Object.entries(summary.linked)) {
    lines.push(`  ${labels.get(kind)}${t('cli.import.counts_linked', { ...l })}`);
  }
  lines.push(t('cli.import.total_ics', { counts: counted(c, t) }));
  if (summary.merged) lines.push(t('cli.import.merged_occurrences', { count: summary.merged }));
  if (summary.skipped.length) {
    lines.push(t('cli.import.skipped'));
    for (const s of summary.skipped) lines.push(skippedLine(s, t));
  }
  return lines;
}

/** The end of an import: counts per kind, totals, and each skipped record with its reason. */
function summaryLines(summary: ImportSummary, dryRun: boolean, t: Translate): string[] {
  const lines = [
    t(dryRun ? 'cli.import.dry_run' : 'cli.import.imported', { source: summary.source }),
  ];
  const labels = kindLabels(Object.keys(summary.counts), t);
  const total = { created: 0, updated: 0, unchanged: 0, skipped: 0, notModified: 0 };
  const since = (n: number) => (n ? t('cli.import.not_modified', { count: n }) : '');
  for (const [kind, c] of Object.entries(summary.counts)) {
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += c[k];
    lines.push(`  ${labels.get(kind)}${counted(c, t)}${since(c.notModified)}`);
  }
  lines.push(
    t('cli.import.total_tec', {
      counts: `${counted(total, t)}${since(total.notModified)}`,
      requests: summary.requests,
      retries: summary.retries,
    }),
  );
  if (summary.skipped.length) {
    lines.push(t('cli.import.skipped'));
    for (const s of summary.skipped) lines.push(skippedLine(s, t));
  }
  if (summary.notes.length) {
    lines.push(t('cli.import.notes'));
    for (const n of summary.notes) lines.push(skippedLine({ ...n, reason: n.note }, t));
  }
  return lines;
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

/** `30d`, `12h`, `2w`, `0d`: how long a record must have been in the trash. */
export function parseAge(value: string): number | null {
  const match = /^(\d{1,6})([hdw])$/.exec(value.trim());
  if (!match) return null;
  const hours = { h: 1, d: 24, w: 24 * 7 }[match[2] as 'h' | 'd' | 'w'];
  return Number(match[1]) * hours * 3600_000;
}
