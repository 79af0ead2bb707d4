import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLanguage, type Language } from './languages.js';
import { I18N_DIR } from './paths.js';
import { pluralRulesOf } from './plural-rules.js';

/**
 * Messages for the operator (the CLI, the importers, the migration commands, configuration and
 * start-up errors), in the operator's language, from the same catalogues as the HTTP answers
 * (`i18n/<language>/<namespace>.json`: `cli`, `config`). The catalogues are read directly rather
 * than through nestjs-i18n, so that `--help`, usage and configuration errors answer before any
 * Nest module is loaded; and here, at the ground floor, so that configuration can raise them.
 */

/**
 * The language of a command-line program, chosen as POSIX tools choose the language of their
 * messages: the first of LC_ALL, LC_MESSAGES and LANG that is set and not empty decides, even
 * when it names a language we do not have (then English, as for `C`, `POSIX` or nothing).
 * `hu_HU.UTF-8`, `hu_HU`, `hu.UTF-8`, `ro_RO@latin` and `hu` all name their language.
 */
export function localeLanguage(env: NodeJS.ProcessEnv): Language {
  const locale = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v !== '');
  if (locale === undefined) return 'en';
  const code = /^([A-Za-z]{2,3})(?=[_.@]|$)/.exec(locale.trim())?.[1].toLowerCase();
  return isLanguage(code) ? code : 'en';
}

/**
 * Values put into a message's `{name}` placeholders; `count` also picks a plural form. A value
 * may be a message itself (a reason inside a sentence), shown in the same language; a list of
 * messages is shown joined by `; `.
 */
export type MessageArgs = { [name: string]: MessageArg };
type MessageArg = string | number | Message | readonly Message[];

/** A catalogue entry and its values, to be shown in whichever language reads it. */
export interface Message {
  key: string;
  args?: MessageArgs;
}

/** A message, written where it is raised: `message('cli.source.not_json', { url })`. */
export const message = (key: string, args?: MessageArgs): Message => ({ key, args });

/** A message of one language: `t('cli.usage.title')`, `t('cli.x', { count: 3 })`. */
export type Translate = (key: string, args?: MessageArgs) => string;

export interface CliMessages {
  language: Language;
  t: Translate;
}

type Catalogue = Record<string, unknown>;
const loaded = new Map<string, Catalogue>();

function namespace(language: Language, name: string): Catalogue | undefined {
  const id = `${language}/${name}`;
  if (!loaded.has(id)) {
    // Namespaces are the catalogue files' names; anything else is not a file we read.
    if (!/^[a-z][a-z0-9-]*$/.test(name)) return undefined;
    try {
      loaded.set(
        id,
        JSON.parse(readFileSync(join(I18N_DIR, language, `${name}.json`), 'utf8')) as Catalogue,
      );
    } catch {
      return undefined;
    }
  }
  return loaded.get(id);
}

function lookup(language: Language, key: string): unknown {
  const [name, ...path] = key.split('.');
  let node: unknown = namespace(language, name);
  for (const part of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'];

/**
 * A plural message is an object of CLDR plural forms (`one`, `few`, `other`…), as nestjs-i18n
 * reads them: the form is chosen by `count` with the language's plural rules. Romanian needs
 * this beyond singular and plural: 1 eveniment, 2 evenimente, 20 de evenimente.
 */
export function pick(
  value: unknown,
  language: Language,
  args?: Record<string, string | number>,
): string | undefined {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object' || args?.count === undefined) return undefined;
  const forms = value as Record<string, unknown>;
  if (!PLURAL_FORMS.some((f) => typeof forms[f] === 'string')) return undefined;
  const count = Number(args.count);
  const form = pluralRulesOf(language).select(count);
  const chosen = (count === 0 ? forms.zero : undefined) ?? forms[form] ?? forms.other;
  return typeof chosen === 'string' ? chosen : undefined;
}

/** `{name}` → its value; a placeholder without a value stays as written, to be noticed. */
export function fill(template: string, args?: Record<string, string | number>): string {
  if (!args) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  );
}

/** The values of a message with every message among them shown by `t`. */
function shown(args: MessageArgs | undefined, t: Translate): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(args ?? {})) {
    out[name] =
      typeof value === 'string' || typeof value === 'number'
        ? value
        : Array.isArray(value)
          ? (value as readonly Message[]).map((m) => t(m.key, m.args)).join('; ')
          : t((value as Message).key, (value as Message).args);
  }
  return out;
}

/**
 * The messages of one language. A key missing in it falls back to English; a key missing in
 * English too is a programming error and is shown as the key itself (and caught by the tests,
 * which render every message).
 */
export function cliMessages(language: Language): CliMessages {
  const t: Translate = (key, args) => {
    const values = shown(args, t);
    const text =
      pick(lookup(language, key), language, values) ??
      (language === 'en' ? undefined : pick(lookup('en', key), 'en', values));
    return text === undefined ? key : fill(text, values);
  };
  return { language, t };
}

/** The messages in the language the environment's locale names. */
export function messagesFor(env: NodeJS.ProcessEnv): CliMessages {
  return cliMessages(localeLanguage(env));
}

/**
 * An error whose message is a catalogue entry: its `message` is the English text (for logs), and
 * a command-line program shows it in the operator's language with `t(error.key, error.args)`.
 */
export class LocalizedError extends Error implements Message {
  constructor(
    readonly key: string,
    readonly args: MessageArgs = {},
  ) {
    super(cliMessages('en').t(key, args));
  }
}

/** What a command-line program prints for an error: a localized one in the operator's language. */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof LocalizedError) return t(error.key, error.args);
  return error instanceof Error ? error.message : String(error);
}
