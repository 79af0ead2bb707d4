/**
 * Characters no text field stores and no feed carries: the C0 controls but tab, line feed and
 * carriage return, DEL, and the non-characters U+FFFE and U+FFFF. XML 1.0 allows none of them
 * but DEL (so one of them made the RSS feed unreadable), and iCalendar's TEXT allows none of
 * them but tab (RFC 5545 §3.3.11, CONTROL).
 */
// oxlint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/;
// oxlint-disable-next-line no-control-regex
const FORBIDDEN_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]+/g;

/** Whether a text carries a character of FORBIDDEN. */
export function hasForbiddenCharacter(text: string): boolean {
  return FORBIDDEN.test(text);
}

/** The text without the characters of FORBIDDEN (for output of rows stored before the rule). */
export function withoutForbiddenCharacters(text: string): string {
  return FORBIDDEN.test(text) ? text.replace(FORBIDDEN_ALL, '') : text;
}
