/** The languages of the catalogues (i18n/<language>/), of the API and of the command line. */
export const LANGUAGES = ['en', 'hu', 'ro'] as const;
export type Language = (typeof LANGUAGES)[number];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
