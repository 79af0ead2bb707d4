import { cliMessages, fill, localeLanguage, pick } from './messages.js';

describe('localeLanguage', () => {
  it('reads the language of a locale name', () => {
    expect(localeLanguage({ LANG: 'hu_HU.UTF-8' })).toBe('hu');
    expect(localeLanguage({ LANG: 'ro_RO.utf8' })).toBe('ro');
    expect(localeLanguage({ LANG: 'ro_RO@latin' })).toBe('ro');
    expect(localeLanguage({ LANG: 'hu' })).toBe('hu');
    expect(localeLanguage({ LANG: 'HU_hu' })).toBe('hu');
    expect(localeLanguage({ LANG: 'en_GB.UTF-8' })).toBe('en');
  });

  it('answers English for C, POSIX, a language we lack and nothing', () => {
    expect(localeLanguage({})).toBe('en');
    expect(localeLanguage({ LANG: 'C' })).toBe('en');
    expect(localeLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(localeLanguage({ LANG: 'POSIX' })).toBe('en');
    expect(localeLanguage({ LANG: 'de_DE.UTF-8' })).toBe('en');
    expect(localeLanguage({ LANG: 'hungarian' })).toBe('en');
  });

  it('takes LC_ALL, then LC_MESSAGES, then LANG; an empty one does not count', () => {
    expect(localeLanguage({ LC_ALL: 'ro_RO.UTF-8', LC_MESSAGES: 'en_US', LANG: 'hu_HU' })).toBe(
      'ro',
    );
    expect(localeLanguage({ LC_MESSAGES: 'ro_RO.UTF-8', LANG: 'hu_HU.UTF-8' })).toBe('ro');
    expect(localeLanguage({ LC_ALL: '', LC_MESSAGES: '', LANG: 'hu_HU.UTF-8' })).toBe('hu');
    // The first one set decides, even when it names a language without catalogue.
    expect(localeLanguage({ LC_ALL: 'C', LANG: 'hu_HU.UTF-8' })).toBe('en');
    expect(localeLanguage({ LC_ALL: 'de_DE', LANG: 'ro_RO' })).toBe('en');
  });
});

describe('cliMessages', () => {
  it('reads the cli catalogue of each language and fills the placeholders', () => {
    expect(cliMessages('en').t('cli.parse.unknown_command', { name: 'x' })).toBe(
      'unknown command "x"',
    );
    expect(cliMessages('hu').t('cli.parse.unknown_command', { name: 'x' })).toBe(
      'ismeretlen parancs: „x”',
    );
    expect(cliMessages('ro').t('cli.parse.unknown_command', { name: 'x' })).toBe(
      'comandă necunoscută: „x”',
    );
  });

  it('reads the other namespaces too', () => {
    expect(cliMessages('hu').t('errors.rest_no_route')).not.toBe('errors.rest_no_route');
  });

  it('shows an unknown key as itself, and refuses paths out of i18n/', () => {
    expect(cliMessages('hu').t('cli.no.such.key')).toBe('cli.no.such.key');
    expect(cliMessages('hu').t('../en/cli.usage')).toBe('../en/cli.usage');
  });

  it('picks the plural form of each language by count, as nestjs-i18n does', () => {
    const forms = {
      one: '{count} eveniment',
      few: '{count} evenimente',
      other: '{count} de evenimente',
    };
    const ro = (n: number) => fill(pick(forms, 'ro', { count: n })!, { count: n });
    expect([0, 1, 2, 19, 20, 101, 120].map(ro)).toEqual([
      '0 evenimente',
      '1 eveniment',
      '2 evenimente',
      '19 evenimente',
      '20 de evenimente',
      '101 evenimente', // numbers ending in 01-19 take no «de»
      '120 de evenimente',
    ]);
    expect(pick({ one: 'one', other: 'many' }, 'en', { count: 2 })).toBe('many');
    expect(pick({ one: 'one', other: 'many' }, 'en')).toBeUndefined();
    expect(pick({ zero: 'none', one: 'one', other: 'many' }, 'hu', { count: 0 })).toBe('none');
  });

  it('leaves a placeholder without a value as written', () => {
    expect(fill('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
