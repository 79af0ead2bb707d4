/**
 * The importers' own words, in one place so that they can be localized with the rest of the
 * command line's output. Each is one line an operator reads when an import stops or skips.
 */

/** What an operator can count on after an import stopped half-way. */
const RESUMABLE =
  'what was imported before is kept (each record with its import map entry): run the same command again to resume; records already imported are left as they are';

export const messages = {
  answerTooLarge: (url: string, limitBytes: number) =>
    `${url}: the answer is larger than ${Math.round(limitBytes / 1024 / 1024)} MB; stopped reading it`,
  refused: (url: string, status: number, detail: string, withCredentials: boolean) =>
    withCredentials
      ? `${url}: the source refused the credentials (HTTP ${status}${detail ? ` ${detail}` : ''}): check --user and --password (an application password of that site)`
      : `${url}: the source refused access (HTTP ${status}${detail ? ` ${detail}` : ''}): it may need --user and --password`,
  tooManyRedirects: (url: string) => `${url}: more than 5 redirects`,
  foreignNext: (url: string, origin: string) =>
    `the source's next page ${url} is not on ${origin}; an import reads one site only`,
  foreignRoot: (root: string, origin: string) =>
    `the REST root ${root} is not on ${origin}, where the credentials are for: give that REST root itself as the source`,
  pagingCycle: (url: string, collection: string) =>
    `the source's ${collection} pages lead back to ${url}, already read (a cycle)`,
  pagingRepeats: (url: string, collection: string) =>
    `the source's ${collection} page ${url} holds only records of earlier pages (it does not page)`,
  tooManyPages: (collection: string, max: number) =>
    `the source's ${collection} list goes on beyond ${max} pages`,
  icsCutSteps: (steps: number) => `its recurrence rule took more than ${steps} steps`,
  icsCutTime: (ms: number) => `its recurrence rule took more than ${ms / 1000} s`,
  icsCutFile: (ms: number) => `the file's recurrence rules took more than ${ms / 1000} s in all`,
  icsTruncated: (uid: string, title: string, why: string, after: string | null) =>
    `${uid}${title ? ` "${title}"` : ''}: series cut short, ${why}; occurrences after ${after ?? 'its start'} (UTC) were not imported`,
  icsNotExpanded: (why: string, after: string | null) =>
    `not expanded: ${why}${after ? ` (it had reached ${after} UTC, before the window)` : ''}`,
  fileTooLarge: (path: string, limitBytes: number) =>
    `${path} is larger than ${Math.round(limitBytes / 1024 / 1024)} MB`,
  protectedSkipped: (withCredentials: boolean) =>
    withCredentials
      ? 'password-protected at the source, and the account given may not open it there (it shows no content): not imported. Give --user and --password of an account that may edit it at the source'
      : 'password-protected at the source (shown without its content): not imported, so that no empty copy is published. Give --user and --password of an account that may edit it at the source to bring it, as a private record',
  protectedPrivate:
    'password-protected at the source: imported with its content as private (its password does not come; give it one here, or publish it, when you choose)',
  stopped: (problem: string) => `${problem}. Import stopped; ${RESUMABLE}.`,
};
