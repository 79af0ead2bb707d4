import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import en from '../../i18n/en/console.json';
import hu from '../../i18n/hu/console.json';
import ro from '../../i18n/ro/console.json';
import { consoleAddress, LANGUAGES, pageLanguage, type Language } from './api';

/** One catalogue per language, beside the server's (i18n/<lang>/console.json, the glossary's). */
const CATALOGUES = { en, hu, ro } as unknown as Record<Language, TranslationMessages>;
const NAMES: Record<Language, string> = { en: 'English', hu: 'Magyar', ro: 'Română' };

const polyglot = polyglotI18nProvider(
  (locale) => CATALOGUES[locale as Language] ?? en,
  pageLanguage(),
  LANGUAGES.map((locale) => ({ locale, name: NAMES[locale] })),
);

/**
 * The language follows the path prefix (`/hu/admin/`), as everywhere on the server: switching it
 * opens the console at the other prefix, on the same screen.
 */
export const i18nProvider: I18nProvider = {
  ...polyglot,
  changeLocale: async (locale: string) => {
    window.location.assign(consoleAddress(locale as Language));
  },
};
