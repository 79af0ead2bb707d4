import { MIN_PASSWORD_LENGTH } from '../config/passwords.js';
import { ROLES } from '../common/roles.js';
import type { Translate } from '../config/messages.js';

// The command line's grammar and help: which commands exist, what each takes, and the strict
// parse that refuses anything else before a command runs (commands.ts runs what it accepts).

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
    name: 'user:console-password',
    args: ['login'],
    summary: 'cli.user_console_password.summary',
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

/** `30d`, `12h`, `2w`, `0d`: how long a record must have been in the trash. */
export function parseAge(value: string): number | null {
  const match = /^(\d{1,6})([hdw])$/.exec(value.trim());
  if (!match) return null;
  const hours = { h: 1, d: 24, w: 24 * 7 }[match[2] as 'h' | 'd' | 'w'];
  return Number(match[1]) * hours * 3600_000;
}
