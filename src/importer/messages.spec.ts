import { ApiError } from '../common/errors/api-error.js';
import { cliMessages } from '../config/messages.js';
import { SourceError } from './http-client.js';
import { messages, said } from './messages.js';
import { eventInput, MalformedRecord } from './record-mapping.js';

const t = { en: cliMessages('en').t, hu: cliMessages('hu').t, ro: cliMessages('ro').t };

/** The importers' reasons (cli.source.*, cli.record.*) read in each language, nested ones too. */
describe('importer reasons in en, hu and ro', () => {
  it('a stop, with the reason inside it', () => {
    const stop = messages.stopped(new SourceError(messages.tooManyPages('events', 10_000)));
    expect(said(stop, t.en)).toBe(
      "the source's events list goes on beyond 10000 pages. Import stopped; what was imported before is kept (each record with its import map entry): run the same command again to resume; records already imported are left as they are.",
    );
    expect(said(stop, t.hu)).toBe(
      'a forrás „events” listája 10000 oldalon túl is folytatódik. Az importálás leállt; ami korábban importálódott, megmarad (minden rekord az importálási térképbeli bejegyzésével): a folytatáshoz futtasd újra ugyanazt a parancsot; a már importált rekordok változatlanok maradnak.',
    );
    expect(said(stop, t.ro)).toBe(
      'lista „events” a sursei continuă după 10000 de pagini. Importul s-a oprit; ce a fost importat înainte se păstrează (fiecare înregistrare cu intrarea ei din harta de import): rulează aceeași comandă din nou ca să reiei; înregistrările deja importate rămân cum sunt.',
    );
    // The error itself says it in English, for logs.
    expect(new SourceError(stop).message).toBe(said(stop, t.en));
  });

  it('refused credentials, and a source that gave up, with the plural of each language', () => {
    const refused = messages.refused('https://a.example/x', 401, 'bad login', true);
    expect(said(refused, t.en)).toBe(
      'https://a.example/x: the source refused the credentials (HTTP 401 bad login): check --user and --password (an application password of that site)',
    );
    expect(said(refused, t.hu)).toBe(
      'https://a.example/x: a forrás nem fogadta el a hitelesítő adatokat (HTTP 401 bad login): ellenőrizd a --user és a --password értékét (annak a webhelynek egy alkalmazásjelszava kell)',
    );
    expect(said(refused, t.ro)).toBe(
      'https://a.example/x: sursa a refuzat datele de autentificare (HTTP 401 bad login): verifică --user și --password (o parolă de aplicație a acelui site)',
    );
    const gaveUp = (n: number) => messages.gaveUp('u', messages.noAnswerWithin(500), n);
    expect(said(gaveUp(1), t.en)).toBe('u: no answer within 500 ms (gave up after 1 attempt)');
    expect(said(gaveUp(3), t.en)).toBe('u: no answer within 500 ms (gave up after 3 attempts)');
    expect(said(gaveUp(3), t.hu)).toBe(
      'u: nem jött válasz 500 ms alatt (3 próbálkozás után feladva)',
    );
    expect(said(gaveUp(3), t.ro)).toBe('u: niciun răspuns în 500 ms (abandonat după 3 încercări)');
    expect(said(gaveUp(20), t.ro)).toBe(
      'u: niciun răspuns în 500 ms (abandonat după 20 de încercări)',
    );
  });

  it('a series refused with the reason of the strict rule reader, and a protected record imported as private', () => {
    const why = { key: 'recurrence.freq_unsupported', args: { value: 'HOURLY' } };
    const refused = messages.seriesRefused(why);
    expect(said(refused, t.en)).toBe(
      'not imported, since its recurrence cannot be kept as a series: recurrence rule FREQ=HOURLY is not supported; use DAILY, WEEKLY, MONTHLY or YEARLY.',
    );
    expect(said(refused, t.hu)).toMatch(
      /^nem lett importálva, mert az ismétlődése nem őrizhető meg sorozatként: .*FREQ=HOURLY/,
    );
    expect(said(refused, t.ro)).toMatch(
      /^nu a fost importat, deoarece recurența nu poate fi păstrată ca serie: .*FREQ=HOURLY/,
    );
    expect(said(messages.protectedPrivate, t.hu)).toMatch(/^a forrásban jelszóval védett/);
    expect(said(messages.protectedPrivate, t.ro)).toMatch(/^la sursă, accesul cere o parolă/);
  });

  it("a record the API refused, with the API's own messages in the same language", () => {
    const error = new ApiError('rest_invalid_param', 400, {
      params: { start_date: { key: 'validation.date' } },
    });
    const reason = messages.apiRefusal(
      error.code,
      error.status,
      error.text,
      Object.entries(error.data.params ?? {}).map(([n, r]) => messages.param(n, r)),
    );
    for (const lang of ['en', 'hu', 'ro'] as const) {
      const text = said(reason, t[lang]);
      expect(text).toMatch(/^rest_invalid_param \(400\): /);
      expect(text).toContain(`start_date: ${t[lang]('validation.date')}`);
      expect(text).not.toContain('validation.date');
    }
    expect(t.hu('validation.date')).not.toBe(t.en('validation.date'));
  });

  it('a malformed record', () => {
    let caught: unknown;
    try {
      eventInput({ id: 3, title: 'x', start_date: 'soon', end_date: 'later' }, () => 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MalformedRecord);
    const error = caught as MalformedRecord;
    expect(said(error, t.en)).toBe('start_date "soon" is not a date');
    expect(said(error, t.hu)).toBe('a(z) start_date („soon”) nem dátum');
    expect(said(error, t.ro)).toBe('start_date „soon” nu este o dată');
  });
});
