import { message, type Message, type Translate } from '../config/messages.js';

/**
 * The importers' own words, in one place: each is a `cli.source.*` entry of the catalogues
 * (i18n/<language>/cli.json), one line an operator reads when an import stops or skips, shown in
 * the operator's language (LC_ALL, LC_MESSAGES, LANG) by the CLI.
 */

/** A reason: a catalogue message, or text that has no translation (a library's, an error code). */
export type Reason = Message | string;

/** A reason in the language of `t`. */
export const said = (reason: Reason, t: Translate): string =>
  typeof reason === 'string' ? reason : t(reason.key, reason.args);

/** ` 401 detail` → the detail after the status, with its space, or nothing. */
const detailOf = (detail: string) => (detail ? ` ${detail}` : '');
const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

export const messages = {
  answerTooLarge: (url: string, limitBytes: number) =>
    message('cli.source.answer_too_large', { url, mb: megabytes(limitBytes) }),
  refused: (url: string, status: number, detail: string, withCredentials: boolean) =>
    message(withCredentials ? 'cli.source.refused_credentials' : 'cli.source.refused', {
      url,
      status,
      detail: detailOf(detail),
    }),
  tooManyRedirects: (url: string) => message('cli.source.too_many_redirects', { url, count: 5 }),
  foreignNext: (url: string, origin: string) => message('cli.source.foreign_next', { url, origin }),
  foreignRoot: (root: string, origin: string) =>
    message('cli.source.foreign_root', { root, origin }),
  pagingCycle: (url: string, collection: string) =>
    message('cli.source.paging_cycle', { url, collection }),
  pagingRepeats: (url: string, collection: string) =>
    message('cli.source.paging_repeats', { url, collection }),
  tooManyPages: (collection: string, max: number) =>
    message('cli.source.too_many_pages', { collection, count: max }),
  gaveUp: (url: string, problem: Reason, attempts: number) =>
    message('cli.source.gave_up', { url, problem, count: attempts }),
  noAnswerWithin: (ms: number) => message('cli.source.no_answer_within', { ms }),
  /** A network error in words, its Node code kept for searching (`ENOTFOUND`). */
  networkError: (code: string) =>
    message(`cli.source.network.${NETWORK_ERRORS[code] ?? 'other'}`, { code }),
  httpStatus: (url: string, status: number, detail = '') =>
    message('cli.source.http_status', { url, status, detail: detailOf(detail) }),
  notJson: (url: string) => message('cli.source.not_json', { url }),
  noList: (url: string, collection: string) => message('cli.source.no_list', { url, collection }),
  notHttpAddress: (input: string) => message('cli.source.not_http_address', { input }),
  noCalendarFound: (input: string, tried: string[]) =>
    message('cli.source.no_calendar_found', { input, tried: tried.join(', ') }),
  notRestRoot: (url: string, status: number) =>
    message('cli.source.not_rest_root', { url, status }),
  notRestRootJson: (url: string) => message('cli.source.not_rest_root_json', { url }),
  noLocalUser: (login: string) => message('cli.source.no_local_user', { login }),
  subscriberAuthor: (login: string) => message('cli.source.subscriber_author', { login }),
  languageNotOurs: (language: unknown) =>
    message('cli.source.language_not_ours', { language: JSON.stringify(language) }),
  cannotRead: (path: string, code: string) => message('cli.source.cannot_read', { path, code }),
  notIcalendar: (source: string | undefined, why: Reason) =>
    message('cli.source.not_icalendar', { source: source ?? message('cli.source.the_file'), why }),
  noVcalendar: () => message('cli.source.no_vcalendar'),
  noUid: () => message('cli.source.no_uid'),
  unreadable: () => message('cli.source.unreadable'),
  icsCutFile: (ms: number) => message('cli.source.ics_cut_file', { seconds: ms / 1000 }),
  seriesRefused: (why: Reason) => message('cli.source.series_refused', { why }),
  icsSeriesNotImported: () => message('cli.source.ics_series_not_imported'),
  tooManySeries: (max: number) => message('cli.source.too_many_series', { count: max }),
  fileTooLarge: (path: string, limitBytes: number) =>
    message('cli.source.file_too_large', { path, mb: megabytes(limitBytes) }),
  protectedSkipped: (withCredentials: boolean) =>
    message(withCredentials ? 'cli.source.protected_unreadable' : 'cli.source.protected_skipped'),
  protectedPrivate: message('cli.source.protected_private'),
  notImported: (kind: string, sourceId: number) =>
    message('cli.source.not_imported', { kind: message(`cli.import.kinds.${kind}`), id: sourceId }),
  apiRefusal: (code: string, status: number, text: Message, params: Message[]) =>
    params.length
      ? message('cli.source.api_refusal_params', { code, status, message: text, params })
      : message('cli.source.api_refusal', { code, status, message: text }),
  param: (name: string, reason: Message) => message('cli.source.param', { name, reason }),
  stopped: (problem: Reason) => message('cli.source.stopped', { problem }),
};

/** The Node and undici codes of a failed connection, by what the operator reads. */
const NETWORK_ERRORS: Record<string, string> = {
  ENOTFOUND: 'host_unknown',
  EAI_AGAIN: 'dns_unavailable',
  ECONNREFUSED: 'refused',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  ETIMEDOUT: 'timed_out',
  UND_ERR_CONNECT_TIMEOUT: 'timed_out',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificate',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate',
  CERT_HAS_EXPIRED: 'certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate',
};
